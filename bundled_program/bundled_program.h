// Bundled programs (.bpte): a program together with test cases, for
// checking on the device that a deployed model still computes what it
// computed in PyTorch.
//
// A .bpte (flatbuffer identifier "BP08", schema/bundled_program_schema.fbs)
// holds the serialized program and, for some of its methods, a list of test
// cases: the inputs to set and the outputs the reference produced.
//
// This is the one way into a .bpte for every tool, binding, test suite and
// firmware: ProgramView::open() takes the bytes of a .bpte or a plain .pte
// (no file system: the caller owns the bytes) and says which program to
// load; load_bundled_input() and verify_method_outputs() run test case i
// with memory the caller gives (bundled_case_memory_bytes() says how much).
// Applications with a heap get the same through Module (extension/module),
// which opens files with it.
//
// Phases:
//   open     BundledProgram::from() checks the untrusted bytes once: the
//            flatbuffer structure (flatbuffers Verifier), then every test
//            value (known dtype, rank <= kMaxTensorDim, non-negative sizes,
//            a dim order that is a permutation, enough data bytes).
//            Nothing later reads outside what was checked here.
//   load     load_bundled_input() sets every input of a loaded Method from
//            one test case, through Method::set_input.
//   verify   after Method::execute(), verify_method_outputs() compares each
//            output with the test case's expected value and, optionally,
//            writes a report per output into caller-provided structs.
//
// No heap anywhere in this library; no exceptions, no RTTI. Every error
// records a message (last_error_message()) naming the method, test case,
// input or output, and the bound that was broken.
//
// Comparison rules (upstream ExecuTorch's), where `a` is the expected value
// from the bundle and `b` is the method's output, element by element:
//   * dtype or shape mismatch: the output fails (no element is compared);
//   * floating types (Float, Double, Half, BFloat16; the 16-bit types are
//     compared after widening to double):
//       - NaN equals NaN;
//       - infinities are equal when their signs match;
//       - rtol == 0 and atol == 0: exact equality;
//       - otherwise the element passes when |a - b| <= atol + rtol * |b|
//         (and |a - b| is finite);
//   * integer and bool types (and any other type): exact equality.
// Scalar outputs (Int, Bool, Double values) follow the same rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/executor/method.h"

namespace ember_bundled_fb {
struct BundledProgram;
struct BundledMethodTestSuite;
}  // namespace ember_bundled_fb

namespace ember {

// Alignment the embedded program keeps inside a .bpte; give from() bytes
// aligned at least this much and the embedded program is aligned too.
constexpr size_t kBundledProgramAlignment = 32;

// True when the bytes carry the bundled program identifier ("BP08" at
// offset 4). Checks only the identifier; `size` < 8 gives false.
bool is_bundled_program(const void* data, size_t size);

// A verified, non-owning view of a .bpte. The bytes must stay alive and
// unchanged as long as the view, and as long as a method reads inputs that
// load_bundled_input() bound in place (see there). Cheap to copy.
class BundledProgram final {
 public:
  // Verifies `data` (see the top of this file). NotSupported when the
  // identifier is not "BP08"; InvalidProgram for any malformed content,
  // with a message naming the suite, test case and value.
  static Result<BundledProgram> from(const void* data, size_t size);

  uint32_t version() const;
  const void* program_data() const;
  size_t program_size() const;

  size_t num_method_suites() const;
  // Method name of suite `index` (index < num_method_suites()).
  const char* suite_method_name(size_t index) const;
  // Test cases for `method_name`; NotFound when the bundle has no suite for
  // it.
  Result<size_t> num_test_cases(const char* method_name) const;

  const ember_bundled_fb::BundledProgram* flatbuffer() const { return root_; }

 private:
  friend class ProgramView;
  BundledProgram() = default;
  BundledProgram(const void* data, size_t size,
                 const ember_bundled_fb::BundledProgram* root)
      : data_(data), size_(size), root_(root) {}

  const void* data_ = nullptr;
  size_t size_ = 0;
  const ember_bundled_fb::BundledProgram* root_ = nullptr;
};

// The bytes of a .bpte or of a plain .pte, opened: which bytes hold the
// program, and for a .bpte the verified test cases. A non-owning view of
// the caller's bytes (which must stay alive and unchanged as long as the
// view, the Program loaded from it and any input bound in place). Cheap to
// copy; no heap.
//
//   Result<ProgramView> view = ProgramView::open(bytes, size);
//   BufferDataLoader loader(view->program_data(), view->program_size());
//   Result<Program> program = Program::load(&loader);
//   ... program->load_method(...), then for a .bpte, test case k:
//   load_bundled_input(method, *view->bundle(), k, &case_allocator);
//   method.execute();
//   verify_method_outputs(method, *view->bundle(), k, rtol, atol, reports, n);
class ProgramView final {
 public:
  // A .bpte (identifier "BP08") is verified (BundledProgram::from: its
  // errors); anything else is taken as a plain program, checked later by
  // Program::load. InvalidArgument for null data with a non-zero size.
  static Result<ProgramView> open(const void* data, size_t size);

  // The program to load. For a .bpte, the embedded program: its segment
  // offsets are relative to these bytes, so load it through a loader over
  // exactly [program_data(), program_data() + program_size()); aligned to
  // kBundledProgramAlignment when `data` was.
  const void* program_data() const { return program_data_; }
  size_t program_size() const { return program_size_; }

  bool is_bundled() const { return bundled_; }
  // The test cases of a .bpte; null for a plain program.
  const BundledProgram* bundle() const { return bundled_ ? &bundle_ : nullptr; }

 private:
  ProgramView() = default;
  const void* program_data_ = nullptr;
  size_t program_size_ = 0;
  bool bundled_ = false;
  BundledProgram bundle_;
};

// Bytes a MemoryAllocator must hold for load_bundled_input() to copy the
// inputs of any test case of `method` into it (every tensor input at its
// upper bound) and to give memory to the outputs the program leaves to
// the application, each aligned as load_bundled_input() aligns it. Give
// the same allocator, reset, for every test case.
size_t bundled_case_memory_bytes(const Method& method);

// Sets every input of `method` from test case `testset_index` of the suite
// named after the method.
//
// Tensor inputs: when the method has planned memory for an input, the
// bytes are copied into it; otherwise the method binds the bytes in place.
// With `allocator` given, the bytes are first copied into memory from it,
// so nothing refers to the bundle afterwards (needed when the bundle's
// bytes are not aligned for the element type, or are released before
// execute(), or when the program writes into an input it does not plan:
// bound in place, that write would change the bundle, or fault when the
// bundle is a read-only mapping). Without it, in-place data must be
// aligned to the element size or the call fails with InvalidArgument.
//
// Outputs the program leaves to the application (not memory-planned) and
// that have no memory yet get a buffer from `allocator` when one is given
// (Method::set_output_data_ptr), so that the test case can run; the
// allocator must then outlive the outputs' use. Without an allocator they
// keep what the application gave them (none: execute() says which output
// has no memory).
//
// Errors (each with a message): NotFound, no suite for the method;
// InvalidArgument, index out of range, input count differs, a value of the
// wrong kind, dtype, rank or shape (the method's message is kept);
// MemoryAllocationFailed, `allocator` too small.
Error load_bundled_input(Method& method, const BundledProgram& bundle,
                         size_t testset_index,
                         MemoryAllocator* allocator = nullptr);

// What the comparison of one output found.
enum class OutputMismatch : uint8_t {
  None,    // every element within tolerance
  Kind,    // expected a tensor and got a scalar, or the other way round
  Dtype,   // tensor dtypes (or scalar kinds) differ
  Shape,   // ranks or sizes differ
  Values,  // same dtype and shape; some elements outside tolerance
  NoData,  // the output tensor has elements but no storage
};

const char* output_mismatch_name(OutputMismatch m);

// The report for one output of one test case. Errors are measured as
// double: abs = |a - b|, rel = |a - b| / |b| (b the method's output; +inf
// when b == 0 and a != b), and sqnr_db from both (see there). For pairs that compare equal by the special
// rules (NaN/NaN, same-signed infinities) both are 0; for other pairs with
// a NaN or infinity the abs error is +inf. For integer types the errors are
// computed from the values widened to double. The worst element is the
// first with the largest abs error among the elements outside tolerance,
// or among all elements when every element passes. With a dtype or shape
// mismatch only `mismatch` and the dtype/rank fields are meaningful.
struct OutputReport {
  size_t testset_index = 0;
  size_t output_index = 0;
  bool passed = false;
  OutputMismatch mismatch = OutputMismatch::None;
  bool is_tensor = true;  // false for a scalar (Int, Bool, Double) output
  ScalarType expected_dtype = ScalarType::Float;
  ScalarType actual_dtype = ScalarType::Float;
  size_t expected_rank = 0;
  size_t actual_rank = 0;
  int64_t numel = 0;
  int64_t num_outside_tolerance = 0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  double mean_abs_error = 0.0;
  // Signal-to-quantization-noise ratio in dB, 10 log10(sum b^2 / sum
  // abs^2) over the compared elements (b: the method's output; infinite b
  // left out of the signal); +inf when every error is 0 (and for numel 0).
  double sqnr_db = 0.0;
  int64_t worst_index = -1;      // flat index in the output's memory order
  double worst_expected = 0.0;   // a, from the bundle
  double worst_actual = 0.0;     // b, from the method
};

// Compares every output of `method` (after execute()) with test case
// `testset_index`. When `reports` is given, fills reports[i] for output i,
// for i < min(num_reports, outputs); every output is compared either way.
//
// Returns Ok when every output passed. NotFound (upstream's code) when at
// least one output failed; the message names the method, the test case,
// the first failing output and its worst element. NotFound / InvalidArgument
// as for load_bundled_input() when the suite or test case cannot be found,
// or when the test case's expected output count differs from the method's.
// NotSupported when the test case has no expected outputs (upstream's rule:
// nothing to verify).
Error verify_method_outputs(Method& method, const BundledProgram& bundle,
                            size_t testset_index, double rtol, double atol,
                            OutputReport* reports = nullptr,
                            size_t num_reports = 0);

// The element comparison on its own, for data that is not a method output
// (and for tests): compares `numel` elements of `type` at `expected` (a)
// and `actual` (b), contiguous, any alignment, with the rules above, and
// fills the value fields of `report` (numel, counts, errors, worst
// element, passed, mismatch None or Values). Returns report->passed.
bool compare_tensor_data(ScalarType type, const void* expected, const void* actual,
                         int64_t numel, double rtol, double atol, OutputReport* report);

// A tensor a test case expects, as a view into the bundle's bytes (valid
// as long as they are): dtype, shape and `nbytes` of data in the
// dim order the bundle gives (row-major when it gives none).
struct BundledTensor {
  ScalarType dtype = ScalarType::Float;
  size_t dim = 0;
  const int32_t* sizes = nullptr;  // `dim` entries
  const void* data = nullptr;
  size_t nbytes = 0;
};

// Expected output `output_index` of test case `testset_index` of
// `method_name`'s suite. NotFound / InvalidArgument as for
// load_bundled_input(); InvalidArgument when the test case has no such
// expected output or it is a scalar.
Result<BundledTensor> bundled_expected_tensor(const BundledProgram& bundle,
                                              const char* method_name,
                                              size_t testset_index, size_t output_index);

// Conveniences over raw bytes: verify the bundle (from()) then call the
// function above. Use the BundledProgram overloads in loops, which verify
// once.
Error load_bundled_input(Method& method, const void* bundle_data,
                         size_t bundle_size, size_t testset_index,
                         MemoryAllocator* allocator = nullptr);
Error verify_method_outputs(Method& method, const void* bundle_data,
                            size_t bundle_size, size_t testset_index,
                            double rtol, double atol,
                            OutputReport* reports = nullptr,
                            size_t num_reports = 0);

// Upstream's default tolerances (bundled_program pybindings).
constexpr double kDefaultBundledRtol = 1e-5;
constexpr double kDefaultBundledAtol = 1e-8;

}  // namespace ember
