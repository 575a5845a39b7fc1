// The CPU features Ember's kernels may use: one process-wide cap, in one
// place, for the kernel library (kernels/math/isa.h) and the XNNPACK
// delegate alike.
//
// By default every feature the CPU (and OS) supports is used ("native").
// The environment variable EMBER_CPU_FEATURES, or set_cpu_level() (the
// runners' --cpu_features flag), names a level from cpu_levels(): the
// features used are then the host's that the level also has. A level
// above the host's is capped to the host's (cpu_cap_note() says which of
// its features the host lacks); an unknown name is refused with a message
// that lists the known ones. Programs then fail to load (Program::load
// checks cpu_level_status()) rather than run on a cap nobody asked for.
//
// The decision is made once, at the first call of cpu_features() (the
// first program load, the first kernel call): set_cpu_level() must come
// before it, and returns Error::InvalidState after.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/platform/error.h"

namespace ember {

// One bit per feature family. The values are those of the XNNPACK patch's
// xnn_ember_isa_cap_bits (third-party/patches/xnnpack-isa-cap.patch): the
// delegate passes the mask through unchanged (and checks that they agree).
enum CpuFeature : uint32_t {
  kCpuX86Sse4 = 1u << 0,         // SSSE3, SSE4.1
  kCpuX86Avx = 1u << 1,          // AVX, F16C
  kCpuX86Avx2 = 1u << 2,         // AVX2, FMA3
  kCpuX86AvxVnni = 1u << 3,      // AVX-VNNI (VEX)
  kCpuX86Avx512 = 1u << 4,       // AVX-512 F, BW, DQ, VL
  kCpuX86Avx512Vbmi = 1u << 5,
  kCpuX86Avx512Vnni = 1u << 6,
  kCpuX86Gfni = 1u << 7,
  kCpuX86Avx512Fp16 = 1u << 8,
  kCpuX86Amx = 1u << 9,          // AMX-INT8 tiles
  kCpuArmDot = 1u << 16,         // dot product (SDOT/UDOT)
  kCpuArmFp16 = 1u << 17,        // fp16 arithmetic
  kCpuArmI8mm = 1u << 18,        // int8 matrix multiply
  kCpuArmBf16 = 1u << 19,
  kCpuArmSve = 1u << 20,         // SVE, SVE2, SME
};

// A named level: the features it allows, and which CPUs it stands for.
struct CpuLevel {
  const char* name;
  uint32_t features;
  const char* stands_for;
};

// The levels of this target architecture, lowest first; the last is
// "native" (every feature). On targets without dispatch, only "baseline"
// and "native".
const CpuLevel* cpu_levels(size_t* count);

// What this CPU and OS support (never capped).
uint32_t host_cpu_features();

// Chooses the level by name before the first cpu_features() call.
// InvalidArgument (with the known names in the error message) for an
// unknown name; InvalidState once the decision is made.
Error set_cpu_level(const char* name);

// The features in use: host_cpu_features() & the level's. Decided once.
uint32_t cpu_features();

// The level in use ("native" unless capped).
const char* cpu_level_name();

// Error::Ok, or InvalidArgument when EMBER_CPU_FEATURES names no level
// (the error message, set again on each call, says why).
Error cpu_level_status();

// When the level asked for has features this host lacks: a line saying
// which (capped to the host's); otherwise "".
const char* cpu_cap_note();

// Writes the names of `features`' bits, space-separated, into `out`.
void format_cpu_features(uint32_t features, char* out, size_t size);

}  // namespace ember
