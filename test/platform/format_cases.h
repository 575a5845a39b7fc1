// Cases for Ember's formatter (runtime/platform/format.h), shared by the
// host gtest (format_test.cpp) and the on-target self-test of Cortex-M
// builds (test/cortex_m/core_selftest.cpp): the expected text is written
// out, so both check the same thing on any C library.
#pragma once

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/platform/format.h"

namespace ember::format_cases {

// Calls check(name, expected, got) for every case; returns the number of
// mismatches.
template <typename Check>
int run(Check check) {
  int failures = 0;
  char out[128];
  const auto expect = [&](const char* name, const char* want, size_t n) {
    const bool ok = std::strcmp(out, want) == 0 && n == std::strlen(want);
    failures += ok ? 0 : 1;
    check(name, want, out, ok);
  };
  size_t n;
  n = format_text(out, sizeof(out), "%zu %zd", size_t(4000000000u), ptrdiff_t(-5));
  expect("size_t", "4000000000 -5", n);
  n = format_text(out, sizeof(out), "%" PRIu64 " %" PRId64, uint64_t(18446744073709551615ull),
                  int64_t(-9223372036854775807ll - 1));
  expect("64-bit", "18446744073709551615 -9223372036854775808", n);
  n = format_text(out, sizeof(out), "%lld %llu %lx", -3ll, 42ull, 255ul);
  expect("long long", "-3 42 ff", n);
  n = format_text(out, sizeof(out), "%d %u %hhu %hd", -2147483647 - 1, 4294967295u, 300, 70000);
  expect("int widths", "-2147483648 4294967295 44 4464", n);
  n = format_text(out, sizeof(out), "[%5d|%-5d|%05d|%+d|% d|%.3d]", 42, 42, 42, 42, 42, 7);
  expect("int flags", "[   42|42   |00042|+42| 42|007]", n);
  n = format_text(out, sizeof(out), "[%#x|%#o|%X|%8.3x]", 255u, 8u, 0xabcu, 0x1fu);
  expect("hex and octal", "[0xff|010|ABC|     01f]", n);
  n = format_text(out, sizeof(out), "[%s|%.3s|%6s|%-6s|%.*s]", "abc", "abcdef", "ab", "ab", 2, "xyz");
  expect("strings", "[abc|abc|    ab|ab    |xy]", n);
  n = format_text(out, sizeof(out), "%c%c %% %3c", 'o', 'k', 'z');
  expect("chars and percent", "ok %   z", n);
  n = format_text(out, sizeof(out), "%g %.3g %.2f %e", 0.5, 3.14159, 2.005, 1e-7);
  expect("floating point", "0.5 3.14 2.00 1.000000e-07", n);
  n = format_text(out, sizeof(out), "%*d|%-*d|", 4, 1, 3, 2);
  expect("star width", "   1|2  |", n);
  char small[6];
  n = format_text(small, sizeof(small), "%s", "truncated");
  std::memcpy(out, small, sizeof(small));
  expect("truncation keeps the length", "trunc", n == 9 ? 5 : n);
  return failures;
}

}  // namespace ember::format_cases
