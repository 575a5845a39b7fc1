// Building .bpte files from a .pte and test cases (tools and tests only:
// uses the heap, std::vector and std::string; never linked into a device
// runtime).
//
// The writer follows the upstream tooling: suites sorted by method name,
// schema version 2, tensor data 16-byte aligned and the embedded program
// 32-byte aligned (kBundledProgramAlignment), every tensor with an explicit
// row-major dim order. The checks are upstream's, plus shapes: every suite
// names a method of the program (and no method twice); every test case has
// as many inputs as the method, each of the method's kind (tensor, int,
// bool, double) and, for tensors, its dtype, rank and shape (within the
// bound for a dynamic input); expected outputs, when given, match the
// method's output count and each tensor output's dtype and rank. A failed
// check returns InvalidArgument with a message naming the method, the test
// case and the input or output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "extension/npy/npy.h"
#include "runtime/core/result.h"

namespace ember {

// One test value. A tensor is an NpyArray (C order); scalars use the
// matching field.
struct BundlerValue {
  enum class Kind { Tensor, Int, Bool, Double };
  Kind kind = Kind::Tensor;
  NpyArray tensor;
  int64_t int_value = 0;
  bool bool_value = false;
  double double_value = 0.0;

  static BundlerValue from_tensor(NpyArray array);
  static BundlerValue from_int(int64_t v);
  static BundlerValue from_bool(bool v);
  static BundlerValue from_double(double v);
};

struct BundlerTestCase {
  std::vector<BundlerValue> inputs;
  std::vector<BundlerValue> expected_outputs;
};

struct BundlerSuite {
  std::string method_name;
  std::vector<BundlerTestCase> test_cases;
};

// Checks the suites against `program` (a .pte) and serializes the bundle.
Result<std::vector<uint8_t>> build_bundled_program(
    const void* program, size_t program_size, std::vector<BundlerSuite> suites);

// Converts a .npy array to a test value for a method slot of kind `tag`:
// 0-d int64 / bool / float64 arrays become Int / Bool / Double scalars when
// the method expects a scalar (the fixture convention of test/models).
BundlerValue value_for_slot(NpyArray array, int tag);

}  // namespace ember
