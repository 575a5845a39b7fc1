// The XNNPACK delegate fixtures (examples/export/export_xnnpack.py):
// every test/models/xnnpack/<case>.bpte loads with its delegate, and every
// test case verifies with the bundled verifier at the MANIFEST's
// tolerance (fp32: PyTorch's outputs; int8: upstream runtime's outputs,
// within one quantization step). Cases with a <case>.portable.bpte twin
// (same module, not delegated) are run both ways and compared output by
// output: the differential test against the portable kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"
#include "test/utils/bundle_fixture.h"
#include "test/xnnpack/xnnpack_cpu_level.h"

namespace ember::testing {
namespace {

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/xnnpack";

struct Entry {
  std::string name;
  std::string kind;
  int delegates = 0;
  double rtol = 1e-4;
  double atol = 1e-5;
};

std::vector<Entry> read_manifest() {
  std::vector<Entry> entries;
  std::ifstream in(kDir + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Entry e;
    std::string word;
    if (!(words >> e.name >> e.kind)) continue;
    while (words >> word) {
      if (word.rfind("delegates=", 0) == 0) e.delegates = std::stoi(word.substr(10));
      if (word.rfind("rtol=", 0) == 0) e.rtol = std::stod(word.substr(5));
      if (word.rfind("atol=", 0) == 0) e.atol = std::stod(word.substr(5));
    }
    entries.push_back(e);
  }
  return entries;
}

std::vector<std::string> names(bool twins_only) {
  std::vector<std::string> out;
  for (const Entry& e : read_manifest()) {
    if (!twins_only || std::filesystem::exists(kDir + "/" + e.name + ".portable.bpte")) {
      out.push_back(e.name);
    }
  }
  return out;
}

Entry entry(const std::string& name) {
  for (const Entry& e : read_manifest()) {
    if (e.name == name) return e;
  }
  return Entry();
}

using Loaded = testing::LoadedBundle;

// Loads `path`; skips for missing portable operators; for a fixture that
// XNNPACK has no kernels for at this CPU level (an fp16 program below
// AVX2), expects that clear refusal and ends the test there.
#define EMBER_LOAD_OR_SKIP(path, loaded, kind)                            \
  do {                                                                    \
    ::testing::AssertionResult ok_ = load(path, loaded);                  \
    if (!ok_ && (loaded)->missing_operators) GTEST_SKIP() << ok_.message(); \
    if (!fp16_kernels_available() && (kind) == "fp16") {                  \
      EXPECT_TRUE(refused_for_this_cpu((loaded)->error.c_str()))          \
          << "expected XNNPACK's refusal at this CPU level: " << ok_.message(); \
      return;                                                             \
    }                                                                     \
    ASSERT_TRUE(ok_);                                                     \
  } while (0)

::testing::AssertionResult load(const std::string& path, Loaded* l) {
  return testing::load_bundle(path, l);
}

void verify_all(const std::string& name) {
  const Entry e = entry(name);
  Loaded l;
  EMBER_LOAD_OR_SKIP(kDir + "/" + name + ".bpte", &l, e.kind);
  Result<size_t> cases = l.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    // Twice: the second run reuses the delegate's bound pointers. Inputs are
    // set each time (planned input memory may be reused by later values).
    for (int run = 0; run < 2; ++run) {
      ASSERT_EQ(load_bundled_input(*l.method, *l.bundle, k), Error::Ok) << last_error_message();
      ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
      std::vector<OutputReport> reports(l.method->outputs_size());
      EXPECT_EQ(verify_method_outputs(*l.method, *l.bundle, k, e.rtol, e.atol, reports.data(),
                                      reports.size()),
                Error::Ok)
          << last_error_message();
    }
  }
}

class XnnpackFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(XnnpackFixture, Verifies) { verify_all(GetParam()); }

TEST_P(XnnpackFixture, IsDelegated) {
  // Every fixture except the ones the partitioner leaves alone (MANIFEST
  // delegates=0) carries at least one XnnpackBackend delegate.
  const Entry e = entry(GetParam());
  if (e.delegates == 0) GTEST_SKIP() << "upstream's partitioner does not take this op";
  std::ifstream in(kDir + "/" + GetParam() + ".bpte", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(raw.find("XnnpackBackend"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, XnnpackFixture, ::testing::ValuesIn(names(false)),
                         [](const auto& info) { return info.param; });

class XnnpackDifferential : public ::testing::TestWithParam<std::string> {};

TEST_P(XnnpackDifferential, MatchesPortableKernels) {
  const Entry e = entry(GetParam());
  Loaded delegated, portable;
  EMBER_LOAD_OR_SKIP(kDir + "/" + GetParam() + ".bpte", &delegated, e.kind);
  EMBER_LOAD_OR_SKIP(kDir + "/" + GetParam() + ".portable.bpte", &portable, std::string());
  Result<size_t> cases = delegated.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    ASSERT_EQ(load_bundled_input(*delegated.method, *delegated.bundle, k), Error::Ok);
    ASSERT_EQ(load_bundled_input(*portable.method, *portable.bundle, k), Error::Ok);
    ASSERT_EQ(delegated.method->execute(), Error::Ok) << last_error_message();
    ASSERT_EQ(portable.method->execute(), Error::Ok) << last_error_message();
    ASSERT_EQ(delegated.method->outputs_size(), portable.method->outputs_size());
    for (size_t o = 0; o < delegated.method->outputs_size(); ++o) {
      const Tensor a = portable.method->get_output(o).to_tensor();
      const Tensor b = delegated.method->get_output(o).to_tensor();
      ASSERT_EQ(a.scalar_type(), b.scalar_type());
      ASSERT_EQ(a.numel(), b.numel());
      OutputReport report;
      // int8: the twin dequantizes and computes in fp32, one step apart at most.
      const double atol = e.kind == "int8" ? 2 * e.atol : e.atol;
      EXPECT_TRUE(compare_tensor_data(a.scalar_type(), a.const_data_ptr(), b.const_data_ptr(),
                                      a.numel(), e.rtol, atol, &report))
          << "output " << o << ": max abs error " << report.max_abs_error << " at "
          << report.worst_index << " (portable " << report.worst_expected << ", delegated "
          << report.worst_actual << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, XnnpackDifferential, ::testing::ValuesIn(names(true)),
                         [](const auto& info) { return info.param; });

TEST(XnnpackThreads, TwoThreadsVerify) {
  ASSERT_EQ(set_num_threads(2), Error::Ok);
  for (const char* name : {"tiny_cnn", "tiny_attention", "conv2d", "bmm", "permute"}) {
    if (!std::filesystem::exists(kDir + "/" + name + ".bpte")) continue;
    SCOPED_TRACE(name);
    verify_all(name);
  }
  ASSERT_EQ(set_num_threads(1), Error::Ok);
}

TEST(XnnpackThreads, PoolChangedAfterLoadIsRefused) {
  if (!std::filesystem::exists(kDir + "/conv2d.bpte")) GTEST_SKIP();
  ASSERT_EQ(set_num_threads(1), Error::Ok);
  Loaded l;
  ASSERT_TRUE(load(kDir + "/conv2d.bpte", &l));
  ASSERT_EQ(load_bundled_input(*l.method, *l.bundle, 0), Error::Ok);
  ASSERT_EQ(set_num_threads(2), Error::Ok);
  EXPECT_EQ(l.method->execute(), Error::InvalidState);
  EXPECT_NE(std::string(last_error_message()).find("thread pool changed"), std::string::npos);
  ASSERT_EQ(set_num_threads(1), Error::Ok);
  EXPECT_EQ(l.method->execute(), Error::Ok) << last_error_message();
}

// A program lowered with a bounded-dynamic batch (linear, [n, 8] with n
// up to 6): the blob holds the upper bound and the delegate reshapes its
// XNNPACK runtime when the batch changes. A linear layer treats rows
// independently, so row r of a batch-n run must equal the same row run
// alone; shrinking, growing back and repeating a size are all exercised.
// (dynamic_seq in the MANIFEST checks several shapes against PyTorch.)
TEST(XnnpackShapes, BoundedDynamicBatchRunsAtEverySize) {
  const std::string path = kDir + "/programs/linear_dynamic_batch.pte";
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  Result<std::unique_ptr<Module>> m = Module::load(path);
  ASSERT_TRUE(m.ok()) << last_error_message();
  Result<Method*> method = (*m)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  Result<TensorInfo> info = (*method)->method_meta().input_tensor_meta(0);
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info->sizes().size(), 2u);
  const int32_t max_rows = info->sizes()[0];
  const int32_t cols = info->sizes()[1];
  ASSERT_EQ(max_rows, 6);
  // Row r holds values that depend on r only.
  auto row_value = [&](int32_t r, int32_t c) { return 0.25f * float(r) - 0.1f * float(c); };
  auto run = [&](int32_t rows, int32_t first_row, std::vector<float>* out) {
    std::vector<float> data(size_t(rows * cols));
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t c = 0; c < cols; ++c) data[size_t(r * cols + c)] = row_value(first_row + r, c);
    }
    SizesType sizes[2] = {rows, cols};
    DimOrderType order[2] = {0, 1};
    StridesType strides[2] = {};
    TensorImpl impl(ScalarType::Float, 2, sizes, data.data(), order, strides,
                    ShapeDynamism::DynamicBound);
    ASSERT_EQ((*method)->set_input(EValue(Tensor(&impl)), 0), Error::Ok) << last_error_message();
    ASSERT_EQ((*method)->execute(), Error::Ok) << last_error_message();
    const Tensor y = (*method)->get_output(0).to_tensor();
    ASSERT_EQ(y.dim(), 2u);
    ASSERT_EQ(y.sizes()[0], rows);
    const float* p = y.const_data_ptr<float>();
    out->assign(p, p + y.numel());
  };
  // Each row alone, at batch 1.
  std::vector<std::vector<float>> alone(static_cast<size_t>(max_rows));
  for (int32_t r = 0; r < max_rows; ++r) {
    ASSERT_NO_FATAL_FAILURE(run(1, r, &alone[size_t(r)]));
  }
  const size_t out_cols = alone[0].size();
  for (int32_t rows : {6, 3, 3, 1, 5, 2, 6}) {
    SCOPED_TRACE("batch " + std::to_string(rows));
    std::vector<float> y;
    ASSERT_NO_FATAL_FAILURE(run(rows, 0, &y));
    ASSERT_EQ(y.size(), size_t(rows) * out_cols);
    for (int32_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < out_cols; ++c) {
        EXPECT_NEAR(y[size_t(r) * out_cols + c], alone[size_t(r)][c], 1e-5f)
            << "row " << r << " column " << c;
      }
    }
  }
  // Past the bound: refused by the method before the delegate sees it.
  std::vector<float> big(size_t((max_rows + 1) * cols), 1.0f);
  SizesType sizes[2] = {max_rows + 1, cols};
  DimOrderType order[2] = {0, 1};
  StridesType strides[2] = {};
  TensorImpl impl(ScalarType::Float, 2, sizes, big.data(), order, strides,
                  ShapeDynamism::DynamicBound);
  EXPECT_EQ((*method)->set_input(EValue(Tensor(&impl)), 0), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
