// The process-wide CPU feature cap (runtime/platform/cpu_features.h). The
// level is decided once per process, so each case runs in a child process
// of its own (EXPECT_EXIT forks before this process ever decides).
#include "runtime/platform/cpu_features.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "kernels/math/isa.h"
#include "runtime/core/error_message.h"

namespace ember {
namespace {

size_t level_count() {
  size_t n = 0;
  cpu_levels(&n);
  return n;
}

const CpuLevel& level(size_t i) {
  size_t n = 0;
  return cpu_levels(&n)[i];
}

bool has(const char* text, const char* part) { return std::strstr(text, part) != nullptr; }

// Runs `body` in a child process with EMBER_CPU_FEATURES set to `env` (null:
// unset); the child exits 0 when `body` returns true.
template <typename F>
void in_child(const char* env, F body) {
  EXPECT_EXIT(
      {
        if (env != nullptr) {
          setenv("EMBER_CPU_FEATURES", env, 1);
        } else {
          unsetenv("EMBER_CPU_FEATURES");
        }
        std::exit(body() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(CpuFeatures, LevelTableIsWellFormed) {
  const size_t n = level_count();
  ASSERT_GE(n, 2u);
  EXPECT_STREQ(level(0).name, "baseline");
  EXPECT_EQ(level(0).features, 0u);
  EXPECT_STREQ(level(n - 1).name, "native");
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(level(i).features & ~level(n - 1).features, 0u) << level(i).name;
    for (size_t j = 0; j < i; ++j) EXPECT_STRNE(level(i).name, level(j).name);
  }
}

TEST(CpuFeatures, DefaultIsNativeAndUsesEveryHostFeature) {
  in_child(nullptr, [] {
    return cpu_level_status() == Error::Ok && std::strcmp(cpu_level_name(), "native") == 0 &&
           cpu_features() == host_cpu_features() && cpu_cap_note()[0] == '\0';
  });
}

TEST(CpuFeatures, BaselineCapsTheKernelLibraryToo) {
  in_child("baseline", [] {
    const bool neon_arch = math::isa_supported(math::Isa::kNeon);
    const math::Isa want = neon_arch ? math::Isa::kNeon : math::Isa::kBaseline;
    return cpu_features() == 0 && math::best_isa() == want;
  });
}

TEST(CpuFeatures, EachLevelUsesTheHostsFeaturesThatItAllows) {
  for (size_t i = 0; i < level_count(); ++i) {
    const CpuLevel l = level(i);
    in_child(l.name, [l] {
      if (cpu_features() != (host_cpu_features() & l.features)) return false;
      // A level asking for more than the host has says so; others do not.
      const bool above = std::strcmp(l.name, "native") != 0 &&
                         (l.features & ~host_cpu_features()) != 0;
      return above == (cpu_cap_note()[0] != '\0') &&
             (!above || has(cpu_cap_note(), "capped to the CPU's"));
    });
  }
}

TEST(CpuFeatures, UnknownEnvironmentLevelIsRefusedWithTheKnownNames) {
  // Bytes from the environment are escaped in the message.
  in_child("avx3\x01", [] {
    const Error e = cpu_level_status();
    const char* m = last_error_message();
    return e == Error::InvalidArgument && has(m, "EMBER_CPU_FEATURES='avx3\\x01'") &&
           has(m, "known: baseline") && has(m, "native");
  });
}

TEST(CpuFeatures, SetLevelBeforeTheDecisionWins) {
  in_child("native", [] {
    return set_cpu_level("baseline") == Error::Ok && cpu_features() == 0 &&
           std::strcmp(cpu_level_name(), "baseline") == 0;
  });
}

TEST(CpuFeatures, SetLevelRefusesUnknownNamesAndLateCalls) {
  in_child(nullptr, [] {
    if (set_cpu_level("fast") != Error::InvalidArgument) return false;
    if (!has(last_error_message(), "unknown CPU level 'fast'; known: baseline")) return false;
    (void)cpu_features();  // decides
    return set_cpu_level("baseline") == Error::InvalidState &&
           std::strcmp(cpu_level_name(), "native") == 0;
  });
}

TEST(CpuFeatures, FormatsFeatureNames) {
  char out[128];
  format_cpu_features(0, out, sizeof(out));
  EXPECT_STREQ(out, "none beyond the baseline");
  format_cpu_features(kCpuX86Avx2 | kCpuX86Amx, out, sizeof(out));
  EXPECT_STREQ(out, "avx2 amx");
  format_cpu_features(kCpuArmDot | kCpuArmI8mm, out, 8);  // cut, NUL-terminated
  EXPECT_LT(std::strlen(out), 8u);
}

}  // namespace
}  // namespace ember
