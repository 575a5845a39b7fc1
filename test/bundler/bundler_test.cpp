// The C++ bundler: round trip through the library, and its checks.
#include <filesystem>

#include "examples/bundler/bundler.h"
#include "test/bundled_program/bundled_test_util.h"

namespace ember::testing {
namespace {

// Suites from a fixture's run folders (test/models/<name>/<method>/run<k>).
std::vector<BundlerSuite> suites_from_runs(const std::string& name) {
  std::vector<BundlerSuite> suites;
  const std::string dir = models_dir() + "/" + name;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_directory()) continue;
    BundlerSuite suite;
    suite.method_name = entry.path().filename().string();
    for (int k = 0;; ++k) {
      const auto run = entry.path() / ("run" + std::to_string(k));
      if (!std::filesystem::exists(run)) break;
      BundlerTestCase tc;
      for (int i = 0;; ++i) {
        Result<NpyArray> a = read_npy((run / ("input" + std::to_string(i) + ".npy")).string());
        if (!a.ok()) break;
        tc.inputs.push_back(BundlerValue::from_tensor(std::move(*a)));
      }
      for (int i = 0;; ++i) {
        Result<NpyArray> a = read_npy((run / ("output" + std::to_string(i) + ".npy")).string());
        if (!a.ok()) break;
        tc.expected_outputs.push_back(BundlerValue::from_tensor(std::move(*a)));
      }
      suite.test_cases.push_back(std::move(tc));
    }
    suites.push_back(std::move(suite));
  }
  return suites;
}

TEST(Bundler, RoundTripEveryFixtureMethod) {
  for (const char* name : {"add", "two_methods", "int_bool", "mlp", "dynamic", "linear"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> pte = read_bytes(models_dir() + "/" + name + "/model.pte");
    Result<std::vector<uint8_t>> bpte =
        build_bundled_program(pte.data(), pte.size(), suites_from_runs(name));
    ASSERT_TRUE(bpte.ok()) << last_error_message();
    LoadedBundle lb;
    ASSERT_TRUE(load_bundle(*bpte, &lb));
    EXPECT_EQ(lb.bundle->version(), 2u);
    ASSERT_EQ(lb.bundle->program_size(), pte.size());
    EXPECT_EQ(std::memcmp(lb.bundle->program_data(), pte.data(), pte.size()), 0);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(lb.bundle->program_data()) %
                  kBundledProgramAlignment,
              0u);
    for (size_t s = 0; s + 1 < lb.bundle->num_method_suites(); ++s) {
      EXPECT_LT(std::string(lb.bundle->suite_method_name(s)),
                std::string(lb.bundle->suite_method_name(s + 1)))
          << "suites are sorted by method name";
    }
    for (size_t s = 0; s < lb.bundle->num_method_suites(); ++s) {
      const std::string method = lb.bundle->suite_method_name(s);
      for (size_t k = 0; k < *lb.bundle->num_test_cases(method.c_str()); ++k) {
        std::vector<OutputReport> reports;
        EXPECT_EQ(run_case(lb, method, k, 1e-5, 1e-6, &reports), Error::Ok)
            << method << " case " << k << ": " << last_error_message();
      }
    }
  }
}

class BundlerChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    pte_ = read_bytes(models_dir() + "/add/model.pte");
    suites_ = suites_from_runs("add");
    ASSERT_EQ(suites_.size(), 1u);
    ASSERT_EQ(suites_[0].test_cases.size(), 2u);
  }
  std::string build_error() {
    Result<std::vector<uint8_t>> r = build_bundled_program(pte_.data(), pte_.size(), suites_);
    EXPECT_FALSE(r.ok());
    if (r.ok()) return "";
    EXPECT_EQ(r.error(), Error::InvalidArgument);
    return last_error_message();
  }
  std::vector<uint8_t> pte_;
  std::vector<BundlerSuite> suites_;
};

TEST_F(BundlerChecks, UnknownMethod) {
  suites_[0].method_name = "backward";
  const std::string m = build_error();
  EXPECT_NE(m.find("no method 'backward'"), std::string::npos) << m;
  EXPECT_NE(m.find("'forward'"), std::string::npos) << m;
}

TEST_F(BundlerChecks, WrongInputCount) {
  suites_[0].test_cases[1].inputs.pop_back();
  const std::string m = build_error();
  EXPECT_NE(m.find("method 'forward' test case 1: 1 inputs, the method takes 2"),
            std::string::npos)
      << m;
}

TEST_F(BundlerChecks, WrongInputDtype) {
  NpyArray& a = suites_[0].test_cases[1].inputs[0].tensor;
  a.dtype = ScalarType::Int;  // same byte size, wrong type
  const std::string m = build_error();
  EXPECT_NE(m.find("method 'forward' test case 1 input 0: dtype Int, the method expects "
                   "Float"),
            std::string::npos)
      << m;
}

TEST_F(BundlerChecks, WrongInputShape) {
  NpyArray& a = suites_[0].test_cases[0].inputs[1].tensor;
  a.shape = {3, 2};
  const std::string m = build_error();
  EXPECT_NE(m.find("test case 0 input 1: shape [3,2], the method expects [2,3]"),
            std::string::npos)
      << m;
}

TEST_F(BundlerChecks, WrongScalarKindAndOutputDtype) {
  suites_[0].test_cases[0].inputs[0] = BundlerValue::from_int(3);
  EXPECT_NE(build_error().find("input 0: got a Int, the method expects a Tensor"),
            std::string::npos);
  suites_ = suites_from_runs("add");
  suites_[0].test_cases[0].expected_outputs[0].tensor.dtype = ScalarType::Int;
  EXPECT_NE(build_error().find("expected output 0: dtype Int, the method returns Float"),
            std::string::npos);
}

TEST_F(BundlerChecks, RejectsABundleAsProgram) {
  const std::vector<uint8_t> bpte = read_bytes(bundled_fixture("add"));
  Result<std::vector<uint8_t>> r = build_bundled_program(bpte.data(), bpte.size(), suites_);
  EXPECT_EQ(r.error(), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
