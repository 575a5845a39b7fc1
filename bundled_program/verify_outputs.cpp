// Comparing a method's outputs with a bundled test case (rules and report
// fields: bundled_program.h).
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "bundled_program/bundled_program.h"
#include "bundled_program/bundled_program_internal.h"
#include "schema/bundled_program_schema_generated.h"

namespace ember {

namespace fb = ::ember_bundled_fb;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Running statistics of one output.
struct Accumulator {
  double rtol;
  double atol;
  double sum_abs = 0.0;
  // Signal and noise power for the SQNR: sum of b^2 (finite b) and of
  // abs_err^2.
  double signal = 0.0;
  double noise = 0.0;
  // Worst element so far: elements outside tolerance rank above passing
  // ones; within a class, the larger abs error wins; ties keep the first.
  bool worst_outside = false;
  double worst_abs = -1.0;

  void add(OutputReport& r, int64_t index, double a, double b, bool close,
           double abs_err) {
    const double rel = abs_err == 0.0 ? 0.0
                       : b == 0.0     ? kInf
                                      : abs_err / std::fabs(b);
    sum_abs += abs_err;
    if (std::isfinite(b)) signal += b * b;
    noise += abs_err * abs_err;
    if (abs_err > r.max_abs_error) r.max_abs_error = abs_err;
    if (rel > r.max_rel_error) r.max_rel_error = rel;
    if (!close) ++r.num_outside_tolerance;
    const bool outside = !close;
    const bool better = (outside && !worst_outside) ||
                        (outside == worst_outside && abs_err > worst_abs);
    if (better) {
      worst_outside = outside;
      worst_abs = abs_err;
      r.worst_index = index;
      r.worst_expected = a;
      r.worst_actual = b;
    }
  }
};

// The floating rule of bundled_program.h; `abs_err` receives the error
// the report uses.
bool floats_close(double a, double b, double rtol, double atol, double* abs_err) {
  if (std::isnan(a) && std::isnan(b)) {
    *abs_err = 0.0;
    return true;
  }
  if (std::isinf(a) && std::isinf(b) && (a > 0) == (b > 0)) {
    *abs_err = 0.0;
    return true;
  }
  double err = std::fabs(a - b);
  if (std::isnan(err)) err = kInf;
  *abs_err = err;
  if (rtol == 0.0 && atol == 0.0) {
    return a == b;
  }
  return std::isfinite(err) && err <= atol + rtol * std::fabs(b);
}

// Reads element i of possibly unaligned bytes.
template <typename T>
T load(const void* p, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(p) + size_t(i) * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void compare_floating(const void* expected, const void* actual, int64_t n,
                      Accumulator& acc, OutputReport& r) {
  for (int64_t i = 0; i < n; ++i) {
    const double a = double(static_cast<float>(load<T>(expected, i)));
    const double b = double(static_cast<float>(load<T>(actual, i)));
    double err = 0.0;
    const bool close = floats_close(a, b, acc.rtol, acc.atol, &err);
    acc.add(r, i, a, b, close, err);
  }
}

template <>
void compare_floating<double>(const void* expected, const void* actual, int64_t n,
                              Accumulator& acc, OutputReport& r) {
  for (int64_t i = 0; i < n; ++i) {
    const double a = load<double>(expected, i);
    const double b = load<double>(actual, i);
    double err = 0.0;
    const bool close = floats_close(a, b, acc.rtol, acc.atol, &err);
    acc.add(r, i, a, b, close, err);
  }
}

template <typename T>
void compare_exact(const void* expected, const void* actual, int64_t n,
                   Accumulator& acc, OutputReport& r) {
  for (int64_t i = 0; i < n; ++i) {
    const T a = load<T>(expected, i);
    const T b = load<T>(actual, i);
    const double da = double(a);
    const double db = double(b);
    const double err = a == b ? 0.0 : (da > db ? da - db : db - da);
    acc.add(r, i, da, db, a == b, a == b ? 0.0 : (err == 0.0 ? 1.0 : err));
  }
}

// Types without a numeric meaning here (quantized, float8, bits): compare
// bytes per element; values are reported as NaN.
void compare_bytes(const void* expected, const void* actual, int64_t n, size_t size,
                   Accumulator& acc, OutputReport& r) {
  const uint8_t* a = static_cast<const uint8_t*>(expected);
  const uint8_t* b = static_cast<const uint8_t*>(actual);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int64_t i = 0; i < n; ++i) {
    const bool same = std::memcmp(a + size_t(i) * size, b + size_t(i) * size, size) == 0;
    acc.add(r, i, nan, nan, same, same ? 0.0 : kInf);
  }
}

void compare_elements(ScalarType type, const void* expected, const void* actual,
                      int64_t n, Accumulator& acc, OutputReport& r) {
  switch (type) {
    case ScalarType::Float: return compare_floating<float>(expected, actual, n, acc, r);
    case ScalarType::Double: return compare_floating<double>(expected, actual, n, acc, r);
    case ScalarType::Half: return compare_floating<Half>(expected, actual, n, acc, r);
    case ScalarType::BFloat16:
      return compare_floating<BFloat16>(expected, actual, n, acc, r);
    case ScalarType::Byte: return compare_exact<uint8_t>(expected, actual, n, acc, r);
    case ScalarType::Char: return compare_exact<int8_t>(expected, actual, n, acc, r);
    case ScalarType::Short: return compare_exact<int16_t>(expected, actual, n, acc, r);
    case ScalarType::Int: return compare_exact<int32_t>(expected, actual, n, acc, r);
    case ScalarType::Long: return compare_exact<int64_t>(expected, actual, n, acc, r);
    case ScalarType::UInt16: return compare_exact<uint16_t>(expected, actual, n, acc, r);
    case ScalarType::UInt32: return compare_exact<uint32_t>(expected, actual, n, acc, r);
    case ScalarType::UInt64: return compare_exact<uint64_t>(expected, actual, n, acc, r);
    case ScalarType::Bool:
      // Compared as bytes so that a non-canonical bool byte still differs.
      return compare_exact<uint8_t>(expected, actual, n, acc, r);
    default:
      return compare_bytes(expected, actual, n, element_size(type), acc, r);
  }
}

void compare_tensor(const fb::Tensor* expected, const EValue& actual_value,
                    Accumulator& acc, OutputReport& r) {
  r.is_tensor = true;
  r.expected_dtype = ScalarType(expected->scalar_type());
  r.expected_rank = expected->sizes() == nullptr ? 0 : expected->sizes()->size();
  if (!actual_value.is_tensor()) {
    r.mismatch = OutputMismatch::Kind;
    return;
  }
  const Tensor actual = actual_value.to_tensor();
  r.actual_dtype = actual.scalar_type();
  r.actual_rank = actual.dim();
  if (r.actual_dtype != r.expected_dtype) {
    r.mismatch = OutputMismatch::Dtype;
    return;
  }
  if (r.actual_rank != r.expected_rank) {
    r.mismatch = OutputMismatch::Shape;
    return;
  }
  const bool has_order = expected->dim_order() != nullptr && expected->dim_order()->size() != 0;
  for (size_t d = 0; d < r.expected_rank; ++d) {
    const flatbuffers::uoffset_t fd = flatbuffers::uoffset_t(d);
    const DimOrderType order = has_order ? expected->dim_order()->Get(fd) : DimOrderType(d);
    if (expected->sizes()->Get(fd) != actual.sizes()[d] ||
        order != actual.dim_order()[d]) {
      r.mismatch = OutputMismatch::Shape;
      return;
    }
  }
  r.numel = actual.numel();
  if (r.numel == 0) return;
  if (actual.const_data_ptr() == nullptr) {
    // A hostile program can leave an output without storage.
    r.mismatch = OutputMismatch::NoData;
    return;
  }
  compare_elements(r.actual_dtype, expected->data()->data(), actual.const_data_ptr(),
                   r.numel, acc, r);
}

void compare_scalar(const fb::Value* expected, const EValue& actual, Accumulator& acc,
                    OutputReport& r) {
  r.is_tensor = false;
  r.numel = 1;
  switch (expected->val_type()) {
    case fb::ValueUnion::Int: {
      r.expected_dtype = ScalarType::Long;
      if (!actual.is_int()) break;
      r.actual_dtype = ScalarType::Long;
      const int64_t a = expected->val_as_Int()->int_val();
      const int64_t b = actual.to_int();
      compare_exact<int64_t>(&a, &b, 1, acc, r);
      return;
    }
    case fb::ValueUnion::Bool: {
      r.expected_dtype = ScalarType::Bool;
      if (!actual.is_bool()) break;
      r.actual_dtype = ScalarType::Bool;
      const uint8_t a = expected->val_as_Bool()->bool_val() ? 1 : 0;
      const uint8_t b = actual.to_bool() ? 1 : 0;
      compare_exact<uint8_t>(&a, &b, 1, acc, r);
      return;
    }
    default: {
      r.expected_dtype = ScalarType::Double;
      if (!actual.is_double()) break;
      r.actual_dtype = ScalarType::Double;
      const double a = expected->val_as_Double()->double_val();
      const double b = actual.to_double();
      compare_floating<double>(&a, &b, 1, acc, r);
      return;
    }
  }
  r.numel = 0;
  r.mismatch = actual.is_tensor() ? OutputMismatch::Kind : OutputMismatch::Dtype;
}

// 10 log10(signal / noise); +inf when there is no noise.
double sqnr_db(const Accumulator& acc) {
  if (acc.noise == 0.0) return kInf;
  return 10.0 * std::log10(acc.signal / acc.noise);
}

// Fills `r` for one output; returns whether it passed.
bool compare_output(const fb::Value* expected, const EValue& actual, double rtol,
                    double atol, OutputReport& r) {
  Accumulator acc{rtol, atol};
  if (expected->val_type() == fb::ValueUnion::Tensor) {
    compare_tensor(expected->val_as_Tensor(), actual, acc, r);
  } else {
    compare_scalar(expected, actual, acc, r);
  }
  if (r.mismatch == OutputMismatch::None && r.num_outside_tolerance != 0) {
    r.mismatch = OutputMismatch::Values;
  }
  if (r.numel > 0 && (r.mismatch == OutputMismatch::None ||
                      r.mismatch == OutputMismatch::Values)) {
    r.mean_abs_error = acc.sum_abs / double(r.numel);
    r.sqnr_db = sqnr_db(acc);
  }
  r.passed = r.mismatch == OutputMismatch::None;
  return r.passed;
}

void describe_failure(const char* method, size_t testset_index, const OutputReport& r,
                      double rtol, double atol) {
  set_error_message("method '%s' test case %zu output %zu: ", method, testset_index,
                    r.output_index);
  switch (r.mismatch) {
    case OutputMismatch::Kind:
      append_error_message("expected a %s, the method returned a %s",
                           r.is_tensor ? "tensor" : "scalar",
                           r.is_tensor ? "scalar" : "tensor");
      break;
    case OutputMismatch::Dtype:
      append_error_message("dtype %s, expected %s", scalar_type_name(r.actual_dtype),
                           scalar_type_name(r.expected_dtype));
      break;
    case OutputMismatch::Shape:
      append_error_message("shape differs from the expected one (rank %zu, expected %zu)",
                           r.actual_rank, r.expected_rank);
      break;
    case OutputMismatch::NoData:
      append_error_message("the output tensor (%" PRId64 " elements) has no storage",
                           r.numel);
      break;
    default:
      append_error_message(
          "%" PRId64 " of %" PRId64 " elements outside tolerance (rtol %g, atol %g); "
          "worst element %" PRId64 ": expected %.9g, got %.9g (abs error %.3g)",
          r.num_outside_tolerance, r.numel, rtol, atol, r.worst_index, r.worst_expected,
          r.worst_actual, std::fabs(r.worst_expected - r.worst_actual));
      break;
  }
}

}  // namespace

const char* output_mismatch_name(OutputMismatch m) {
  switch (m) {
    case OutputMismatch::None: return "none";
    case OutputMismatch::Kind: return "kind";
    case OutputMismatch::Dtype: return "dtype";
    case OutputMismatch::Shape: return "shape";
    case OutputMismatch::Values: return "values";
    case OutputMismatch::NoData: return "no data";
  }
  return "unknown";
}

bool compare_tensor_data(ScalarType type, const void* expected, const void* actual,
                         int64_t numel, double rtol, double atol, OutputReport* report) {
  OutputReport& r = *report;
  r.expected_dtype = type;
  r.actual_dtype = type;
  r.numel = numel;
  r.num_outside_tolerance = 0;
  r.max_abs_error = r.max_rel_error = r.mean_abs_error = 0.0;
  r.worst_index = -1;
  Accumulator acc{rtol, atol};
  if (numel > 0) compare_elements(type, expected, actual, numel, acc, r);
  r.mismatch = r.num_outside_tolerance != 0 ? OutputMismatch::Values : OutputMismatch::None;
  r.mean_abs_error = numel > 0 ? acc.sum_abs / double(numel) : 0.0;
  r.sqnr_db = numel > 0 ? sqnr_db(acc) : kInf;
  r.passed = r.mismatch == OutputMismatch::None;
  return r.passed;
}

Error verify_method_outputs(Method& method, const BundledProgram& bundle,
                            size_t testset_index, double rtol, double atol,
                            OutputReport* reports, size_t num_reports) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(rtol >= 0.0 && atol >= 0.0, Error::InvalidArgument,
                        "verify_method_outputs: rtol (%g) and atol (%g) must be "
                        "non-negative numbers",
                        rtol, atol);
  // The name is read from the file: looked up as it is, printed escaped.
  const PrintableName shown(method.name());
  const char* name = shown.c_str();
  Result<const fb::BundledMethodTestCase*> test_case =
      bundled_detail::find_test_case(bundle, method.name(), testset_index);
  if (!test_case.ok()) {
    return test_case.error();
  }
  const auto* expected = (*test_case)->expected_outputs();
  const size_t count = expected == nullptr ? 0 : expected->size();
  EMBER_CHECK_OR_RETURN(count != 0, Error::NotSupported,
                        "bundled program: method '%s' test case %zu has no expected "
                        "outputs: nothing to verify",
                        name, testset_index);
  EMBER_CHECK_OR_RETURN(count == method.outputs_size(), Error::InvalidArgument,
                        "bundled program: method '%s' test case %zu has %zu expected "
                        "outputs, the method returns %zu",
                        name, testset_index, count, method.outputs_size());
  bool all_passed = true;
  for (size_t i = 0; i < count; ++i) {
    OutputReport local;
    OutputReport& r = i < num_reports && reports != nullptr ? reports[i] : local;
    r = OutputReport();
    r.testset_index = testset_index;
    r.output_index = i;
    const bool passed = compare_output(expected->Get(flatbuffers::uoffset_t(i)),
                                       method.get_output(i), rtol, atol, r);
    if (!passed && all_passed) {
      describe_failure(name, testset_index, r, rtol, atol);
    }
    all_passed = all_passed && passed;
  }
  return all_passed ? Error::Ok : Error::NotFound;
}

Error verify_method_outputs(Method& method, const void* bundle_data, size_t bundle_size,
                            size_t testset_index, double rtol, double atol,
                            OutputReport* reports, size_t num_reports) {
  Result<BundledProgram> bundle = BundledProgram::from(bundle_data, bundle_size);
  if (!bundle.ok()) {
    return bundle.error();
  }
  return verify_method_outputs(method, *bundle, testset_index, rtol, atol, reports,
                               num_reports);
}

}  // namespace ember
