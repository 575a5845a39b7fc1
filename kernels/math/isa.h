// Instruction sets for the optimized kernels, chosen at run time.
//
// The project is compiled for baseline x86-64 (SSE2), so the library runs
// on any x86-64 CPU. Hot loops are written once, as always-inline
// templates over GCC/Clang vector types (VecF4, VecF8, VecF16), and
// instantiated per ISA: in plain functions (baseline), in functions
// marked EMBER_MATH_TARGET_AVX2 (AVX2 + FMA) and EMBER_MATH_TARGET_AVX512
// (AVX-512F/DQ/BW/VL). best_isa() picks the widest one the CPU and OS support,
// once; every kernel also takes an explicit Isa so that tests run each
// path.
//
// On AArch64, NEON (Advanced SIMD, with FMA) is part of the architecture:
// the baseline there already lowers VecF4 to NEON. Isa::kNeon is the path
// tuned for its 32 vector registers: larger register tiles (the GEMM's
// 8 x 8 instead of the baseline's 4 x 8, written for SSE2's 16) and
// kernels unrolled over two registers (VecF8, which GCC and Clang lower
// to pairs of NEON instructions). No attribute is needed: every AArch64
// CPU runs it. On other targets only the baseline exists (VecF4 lowers
// to the target's vectors or to scalar code).
//
// Results may differ between ISAs in the last bits (FMA contracts
// a * b + c; sums are split differently), never between thread counts.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/platform/cpu_features.h"

namespace ember::math {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EMBER_MATH_X86_DISPATCH 1
#define EMBER_MATH_TARGET_AVX2 __attribute__((target("avx2,fma")))
// AVX-512 with DQ, BW and VL (every AVX-512 CPU since Skylake-SP has
// them): GCC 12 turns a vector compare into a vector of lane masks only
// with AVX-512DQ (vpmovm2d); with AVX-512F alone it compared lane by lane
// in scalar code, which made softmax and max pooling several times slower.
#define EMBER_MATH_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")))
#else
#define EMBER_MATH_X86_DISPATCH 0
#endif

#if defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__))
#define EMBER_MATH_NEON_DISPATCH 1
#else
#define EMBER_MATH_NEON_DISPATCH 0
#endif

// Templates holding hot loops carry this, so that each instantiation is
// compiled for the instruction set of the function that calls it.
#define EMBER_MATH_INLINE inline __attribute__((always_inline))

enum class Isa { kBaseline, kAvx2, kAvx512, kNeon };

// Whether this CPU (and OS) can run `isa`'s kernels.
inline bool isa_supported(Isa isa) {
#if EMBER_MATH_X86_DISPATCH
  switch (isa) {
    case Isa::kBaseline: return true;
    case Isa::kAvx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    case Isa::kNeon: return false;
  }
  return false;
#elif EMBER_MATH_NEON_DISPATCH
  return isa == Isa::kBaseline || isa == Isa::kNeon;
#else
  return isa == Isa::kBaseline;
#endif
}

// The ISA that the process-wide CPU feature cap allows (EMBER_CPU_FEATURES,
// runtime/platform/cpu_features.h), as a feature mask: the one table that
// maps the cap to this library's paths. On AArch64 NEON is the baseline of
// the architecture, so every level runs kNeon.
inline Isa isa_for_features(uint32_t features) {
  if ((features & kCpuX86Avx512) && isa_supported(Isa::kAvx512)) return Isa::kAvx512;
  if ((features & kCpuX86Avx2) && isa_supported(Isa::kAvx2)) return Isa::kAvx2;
  if (isa_supported(Isa::kNeon)) return Isa::kNeon;
  return Isa::kBaseline;
}

// The widest ISA the CPU supports and the cap allows, decided once.
inline Isa best_isa() {
  static const Isa isa = isa_for_features(cpu_features());
  return isa;
}

inline const char* isa_name(Isa isa) {
  return isa == Isa::kAvx512 ? "avx512"
         : isa == Isa::kAvx2  ? "avx2+fma"
         : isa == Isa::kNeon  ? "neon"
                              : "baseline";
}

typedef float VecF4 __attribute__((vector_size(16)));
typedef float VecF8 __attribute__((vector_size(32)));
typedef float VecF16 __attribute__((vector_size(64)));
typedef int32_t VecI4 __attribute__((vector_size(16)));
typedef int32_t VecI8 __attribute__((vector_size(32)));
typedef int32_t VecI16 __attribute__((vector_size(64)));

// Unaligned loads and stores of a whole vector. Vectors cross function
// boundaries by reference only: by value, their ABI would differ between
// an AVX function and a baseline one (clang rejects that outright).
template <typename V>
EMBER_MATH_INLINE void load_vec(V& v, const float* p) {
  std::memcpy(&v, p, sizeof(V));
}
template <typename V>
EMBER_MATH_INLINE void store_vec(float* p, const V& v) {
  std::memcpy(p, &v, sizeof(V));
}

// Multiply-adds below which a kernel stays on the calling thread: waking
// the pool would cost more than the work.
constexpr size_t kInlineMacs = size_t(1) << 16;

}  // namespace ember::math
