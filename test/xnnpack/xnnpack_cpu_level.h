// What the fixture tests expect where the CPU level (EMBER_CPU_FEATURES,
// docs/cpu_features.md) leaves XNNPACK without kernels for a fixture.
#pragma once

#include <cstring>
#include <string>

#include "runtime/platform/cpu_features.h"

namespace ember::testing {

// XNNPACK's fp16 kernels need AVX2 (with F16C) on x86-64 and fp16
// arithmetic on ARM64: below that, an fp16 program is refused.
inline bool fp16_kernels_available() {
#if defined(__x86_64__)
  return (cpu_features() & kCpuX86Avx2) != 0;
#elif defined(__aarch64__)
  return (cpu_features() & kCpuArmFp16) != 0;
#else
  return true;
#endif
}

// The load error is the delegate's refusal for a CPU level without the
// kernels (XNNPACK's status, and what fp16 programs need): what a fixture
// XNNPACK cannot run at this level must get.
inline bool refused_for_this_cpu(const char* message) {
  return std::strstr(message, "unsupported hardware") != nullptr &&
         std::strstr(message, "fp16 programs need AVX2") != nullptr;
}

}  // namespace ember::testing
