// Shared helpers for tests that run the committed fixtures in test/models.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "extension/npy/npy.h"
#include "extension/runner_util/inputs.h"
#include "runtime/executor/method.h"

namespace ember::testing {

inline std::string models_dir() { return EMBER_TEST_MODELS_DIR; }

inline std::string fixture_path(const std::string& name) {
  return models_dir() + "/" + name + "/model.pte";
}

inline std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::vector<uint8_t> bytes;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return bytes;
  fseek(f, 0, SEEK_END);
  bytes.resize(size_t(ftell(f)));
  fseek(f, 0, SEEK_SET);
  size_t got = fread(bytes.data(), 1, bytes.size(), f);
  bytes.resize(got);
  fclose(f);
  return bytes;
}

// Run folders (run0, run1, ...) of a fixture method, in order.
inline std::vector<std::string> run_dirs(const std::string& name,
                                         const std::string& method) {
  std::vector<std::string> runs;
  for (int k = 0;; ++k) {
    const std::string dir =
        models_dir() + "/" + name + "/" + method + "/run" + std::to_string(k);
    if (!std::filesystem::exists(dir)) break;
    runs.push_back(dir);
  }
  return runs;
}

// Owns tensors made from .npy arrays.
class NpyTensors {
 public:
  Tensor add(const NpyArray& array) {
    auto t = std::make_unique<Held>();
    t->array = array;
    t->sizes = array.shape;
    for (size_t i = 0; i < t->sizes.size(); ++i) t->dim_order.push_back(DimOrderType(i));
    t->strides.resize(t->sizes.size());
    t->impl = std::make_unique<TensorImpl>(array.dtype, t->sizes.size(), t->sizes.data(),
                                           t->array.data.data(), t->dim_order.data(),
                                           t->strides.data());
    Tensor out(t->impl.get());
    held_.push_back(std::move(t));
    return out;
  }

 private:
  struct Held {
    NpyArray array;
    std::vector<SizesType> sizes;
    std::vector<DimOrderType> dim_order;
    std::vector<StridesType> strides;
    std::unique_ptr<TensorImpl> impl;
  };
  std::vector<std::unique_ptr<Held>> held_;
};

// An EValue for an input .npy: 0-d int64/float64/bool arrays become
// scalars when the method expects a scalar, otherwise a tensor.
inline EValue input_value(NpyTensors& tensors, const NpyArray& array, Tag expected) {
  if (expected == Tag::Int) return EValue(*array.as<int64_t>());
  if (expected == Tag::Double) return EValue(*array.as<double>());
  if (expected == Tag::Bool) return EValue(*array.as<bool>());
  return EValue(tensors.add(array));
}

// Compares an output with its expected .npy: dtype, shape, and values
// within atol + rtol * |expected| (exact for integers and bools).
inline ::testing::AssertionResult output_matches(const EValue& actual,
                                                 const NpyArray& expected,
                                                 double rtol = 1e-5,
                                                 double atol = 1e-6) {
  if (actual.is_int() || actual.is_double() || actual.is_bool()) {
    const double a = actual.scalar_to_double();
    const double e = expected.dtype == ScalarType::Long ? double(*expected.as<int64_t>())
                     : expected.dtype == ScalarType::Bool ? double(*expected.as<bool>())
                                                          : *expected.as<double>();
    if (std::fabs(a - e) <= atol + rtol * std::fabs(e)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "scalar " << a << " != " << e;
  }
  if (!actual.is_tensor()) {
    return ::testing::AssertionFailure() << "output is " << tag_name(actual.tag());
  }
  const Tensor t = actual.to_tensor();
  if (t.scalar_type() != expected.dtype) {
    return ::testing::AssertionFailure() << "dtype " << scalar_type_name(t.scalar_type())
                                         << " != " << scalar_type_name(expected.dtype);
  }
  if (t.dim() != expected.shape.size()) {
    return ::testing::AssertionFailure() << "rank " << t.dim() << " != "
                                         << expected.shape.size();
  }
  for (size_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] != expected.shape[d]) {
      return ::testing::AssertionFailure() << "size at dim " << d << ": " << t.sizes()[d]
                                           << " != " << expected.shape[d];
    }
  }
  NpyTensors holder;
  const Tensor e = holder.add(expected);
  const bool exact = !is_floating_type(t.scalar_type());
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double a = element_as_double(t, i);
    const double b = element_as_double(e, i);
    const bool ok = exact ? a == b
                          : (std::isnan(a) && std::isnan(b)) ||
                                std::fabs(a - b) <= atol + rtol * std::fabs(b);
    if (!ok) {
      return ::testing::AssertionFailure() << "element " << i << ": " << a
                                           << " != expected " << b;
    }
  }
  return ::testing::AssertionSuccess();
}

// Runs every run folder of `method_name` in order on `method` and checks
// every output.
inline void run_and_check(Method& method, const std::string& fixture,
                          const std::string& method_name) {
  const std::vector<std::string> runs = run_dirs(fixture, method_name);
  ASSERT_FALSE(runs.empty()) << "no runs for " << fixture << "/" << method_name;
  for (const std::string& dir : runs) {
    SCOPED_TRACE(dir);
    NpyTensors tensors;
    for (size_t i = 0; i < method.inputs_size(); ++i) {
      Result<NpyArray> array = read_npy(dir + "/input" + std::to_string(i) + ".npy");
      ASSERT_TRUE(array.ok()) << last_error_message();
      Result<Tag> tag = method.method_meta().input_tag(i);
      ASSERT_TRUE(tag.ok());
      const Error err = method.set_input(input_value(tensors, *array, *tag), i);
      ASSERT_EQ(err, Error::Ok) << last_error_message();
    }
    const Error err = method.execute();
    ASSERT_EQ(err, Error::Ok) << last_error_message();
    for (size_t i = 0; i < method.outputs_size(); ++i) {
      Result<NpyArray> expected = read_npy(dir + "/output" + std::to_string(i) + ".npy");
      ASSERT_TRUE(expected.ok()) << last_error_message();
      EXPECT_TRUE(output_matches(method.get_output(i), *expected)) << "output " << i;
    }
  }
}

}  // namespace ember::testing
