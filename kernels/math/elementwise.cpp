// Vectorized elementwise kernels (elementwise.h): one vector loop per
// ISA, the tail through a zero-padded stack vector.
#include "kernels/math/elementwise.h"

#include <algorithm>

#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

constexpr size_t kChunk = 16384;  // elements per parallel task

template <typename V>
EMBER_MATH_INLINE void clamp_vec(const V& x, float lo, float hi, V& out) {
  V y = x < lo ? V{} + lo : x;   // NaN compares false: stays x
  out = y > hi ? V{} + hi : y;
}

template <typename V>
EMBER_MATH_INLINE void clamp_run(size_t n, const float* in, float* out, float lo, float hi) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  size_t i = 0;
  V x, y;
  for (; i + W <= n; i += W) load_vec(x, in + i), clamp_vec(x, lo, hi, y), store_vec(out + i, y);
  if (i < n) {
    float buf[W] = {};
    std::copy(in + i, in + n, buf);
    load_vec(x, buf);
    clamp_vec(x, lo, hi, y);
    store_vec(buf, y);
    std::copy(buf, buf + (n - i), out + i);
  }
}

template <typename V>
EMBER_MATH_INLINE void affine_run(size_t n, const float* in, float* out, float scale,
                                 float shift) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  size_t i = 0;
  V x;
  for (; i + W <= n; i += W) load_vec(x, in + i), x = x * scale + shift, store_vec(out + i, x);
  if (i < n) {
    float buf[W] = {};
    std::copy(in + i, in + n, buf);
    load_vec(x, buf);
    x = x * scale + shift;
    store_vec(buf, x);
    std::copy(buf, buf + (n - i), out + i);
  }
}

void clamp_baseline(size_t n, const float* in, float* out, float lo, float hi) {
  clamp_run<VecF4>(n, in, out, lo, hi);
}
void affine_baseline(size_t n, const float* in, float* out, float s, float b) {
  affine_run<VecF4>(n, in, out, s, b);
}
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void clamp_avx2(size_t n, const float* in, float* out, float lo, float hi) {
  clamp_run<VecF8>(n, in, out, lo, hi);
}
EMBER_MATH_TARGET_AVX512 void clamp_avx512(size_t n, const float* in, float* out, float lo,
                                          float hi) {
  clamp_run<VecF16>(n, in, out, lo, hi);
}
EMBER_MATH_TARGET_AVX2 void affine_avx2(size_t n, const float* in, float* out, float s, float b) {
  affine_run<VecF8>(n, in, out, s, b);
}
EMBER_MATH_TARGET_AVX512 void affine_avx512(size_t n, const float* in, float* out, float s,
                                           float b) {
  affine_run<VecF16>(n, in, out, s, b);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void clamp_neon(size_t n, const float* in, float* out, float lo, float hi) {
  clamp_run<VecF8>(n, in, out, lo, hi);
}
void affine_neon(size_t n, const float* in, float* out, float s, float b) {
  affine_run<VecF8>(n, in, out, s, b);
}
#endif

}  // namespace

void clamp_f32(size_t n, const float* in, float* out, float lo, float hi, Isa isa) {
  void (*fn)(size_t, const float*, float*, float, float) = clamp_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = clamp_avx512;
  if (isa == Isa::kAvx2) fn = clamp_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = clamp_neon;
#endif
  (void)isa;
  if (n <= kChunk) return fn(n, in, out, lo, hi);
  parallel_for((n + kChunk - 1) / kChunk, [&](size_t c) {
    const size_t begin = c * kChunk;
    fn(std::min(kChunk, n - begin), in + begin, out + begin, lo, hi);
  });
}

void scale_shift_f32(size_t n, const float* in, float* out, float scale, float shift, Isa isa) {
  void (*fn)(size_t, const float*, float*, float, float) = affine_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = affine_avx512;
  if (isa == Isa::kAvx2) fn = affine_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = affine_neon;
#endif
  (void)isa;
  fn(n, in, out, scale, shift);
}

}  // namespace ember::math
