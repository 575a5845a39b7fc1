// Runs one program (.pte or .bpte) on the bare-metal runner's static
// memory: every method with a test suite (a .bpte: each test case's inputs
// bound, executed and verified) or every method on inputs of ones (a .pte).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/memory_allocator.h"

namespace ember::baremetal {

struct RunOptions {
  double rtol;
  double atol;
  // The op suite's rule (test/op_suite/op_suite_tolerance.h, as on the
  // host): tolerances by output dtype, rtol / atol at 0 or above override
  // them.
  bool op_suite_tolerance = false;
  const char* method = nullptr;  // only this method (null: every one)
  bool cycles = false;           // per-operator cycle counts
  // Give one pool one byte less than MethodMeta states (a check that the
  // stated size is exact): 'm' the method allocator, 'p' planned buffer 0.
  char shrink = 0;
  size_t temp_bytes = size_t(1) << 20;
};

struct RunCounts {
  size_t passed = 0;
  size_t failed = 0;
};

// Pools for one method, when the firmware sized them at build time (a
// memory header the runner printed with --header): used instead of the
// arena when given.
struct StaticPools {
  uint8_t* method_pool = nullptr;
  size_t method_pool_size = 0;
  uint8_t* planned = nullptr;
  size_t planned_size = 0;
};

// `arena` gives every pool (reset by the caller between programs). `name`
// labels the output lines. Each test case (or method run) counts once.
RunCounts run_program(const uint8_t* bytes, size_t size, const char* name,
                      const RunOptions& options, MemoryAllocator& arena,
                      const StaticPools* pools = nullptr);

// printf through Ember's formatter (newlib's printf has no %zu).
void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace ember::baremetal
