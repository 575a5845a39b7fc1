// The core's own checks on the target (no gtest there): the formatter's
// cases shared with the host test (test/platform/format_cases.h), error
// messages, the allocator, the registry, the clock, the thread pool of a
// build without threads. Prints a line per check and "N passed, M failed".
#include <cstdio>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/clock.h"
#include "runtime/platform/threadpool.h"
#include "test/platform/format_cases.h"

namespace {

int g_passed = 0, g_failed = 0;

void check(const char* name, bool ok) {
  (ok ? g_passed : g_failed) += 1;
  char line[160];
  ember::format_text(line, sizeof(line), "%s: %s\n", ok ? "pass" : "FAIL", name);
  std::fputs(line, stdout);
}

}  // namespace

int main() {
  ember::format_cases::run([](const char* name, const char* want, const char* got, bool ok) {
    char label[160];
    ember::format_text(label, sizeof(label), "format %s ('%s' / '%s')", name, want, got);
    check(label, ok);
  });

  ember::set_error_message("method '%s' value %zu", "forward", size_t(7));
  ember::prefix_error_message("fallback", "loading %d", 1);
  check("error message: prefix keeps the cause",
        std::strcmp(ember::last_error_message(), "loading 1: method 'forward' value 7") == 0);
  ember::append_error_message(" (+%" PRIu64 ")", uint64_t(1) << 40);
  check("error message: append with a 64-bit value",
        std::strstr(ember::last_error_message(), "(+1099511627776)") != nullptr);

  alignas(16) static uint8_t pool[64];
  ember::MemoryAllocator allocator(pool, sizeof(pool));
  void* a = allocator.allocate(3, 1);
  void* b = allocator.allocate(8, 8);
  check("allocator: alignment", a != nullptr && b != nullptr && uintptr_t(b) % 8 == 0);
  check("allocator: exhaustion gives null", allocator.allocate(64, 1) == nullptr);

  check("registry: the kernels registered themselves",
        ember::num_registered_kernels() > 100 &&
            ember::find_kernel("aten::add", "out") != nullptr);

  const uint64_t t0 = ember::clock_ticks();
  volatile float x = 1.0f;
  for (int i = 0; i < 10000; ++i) x = x * 1.0001f;
  check("clock: counts (core cycles)", ember::clock_ticks() > t0);

  check("threads: one, and no more can be asked for",
        ember::num_threads() == 1 && ember::set_num_threads(2) == ember::Error::NotSupported);

  char summary[64];
  ember::format_text(summary, sizeof(summary), "%d passed, %d failed\n", g_passed, g_failed);
  std::fputs(summary, stdout);
  return g_failed == 0 ? 0 : 1;
}
