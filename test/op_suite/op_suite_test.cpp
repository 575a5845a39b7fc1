// The generated operator suite: every test/models/ops/<case>.bpte (written
// by examples/export/export_op_suite.py with PyTorch's outputs) is loaded,
// every test case is run on the portable kernels and verified with the
// bundled verifier. Tolerances: by output dtype (op_suite_tolerance.h,
// shared with the Cortex-M suite), unless the case's MANIFEST line
// overrides them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "test/op_suite/op_suite_programs.h"
#include "test/op_suite/op_suite_tolerance.h"

namespace ember::testing {
namespace {

const std::string kOpsDir = std::string(EMBER_TEST_MODELS_DIR) + "/ops";

std::vector<std::string> case_names() { return bundled_program_names(kOpsDir); }

class OpSuite : public ::testing::TestWithParam<std::string> {};

TEST_P(OpSuite, EveryTestCaseVerifies) {
  const std::string name = GetParam();
  static const std::map<std::string, ManifestEntry> manifest = read_manifest(kOpsDir);
  const AlignedFile file(kOpsDir + "/" + name + ".bpte");
  Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  Result<std::unique_ptr<Module>> module = Module::load(std::make_unique<BufferDataLoader>(
      bundle->program_data(), bundle->program_size()));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  Result<size_t> cases = bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  ASSERT_GT(*cases, 0u);

  auto found = manifest.find(name);
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    ASSERT_EQ(load_bundled_input(**method, *bundle, k), Error::Ok) << last_error_message();
    ASSERT_EQ((*method)->execute(), Error::Ok) << last_error_message();
    const OpSuiteTolerance tol =
        op_suite_tolerance(**method, found != manifest.end() ? found->second.rtol : -1,
                           found != manifest.end() ? found->second.atol : -1);
    OutputReport reports[16];
    EXPECT_EQ(verify_method_outputs(**method, *bundle, k, tol.rtol, tol.atol, reports, 16),
              Error::Ok)
        << last_error_message();
  }
  RecordProperty("test_cases", int(*cases));
}

INSTANTIATE_TEST_SUITE_P(Generated, OpSuite, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// Prints how much the suite covers (operators and test cases).
TEST(OpSuiteSummary, CountsOperatorsAndCases) {
  const std::vector<std::string> names = case_names();
  const std::map<std::string, ManifestEntry> manifest = read_manifest(kOpsDir);
  std::set<std::string> ops;
  for (const auto& name : names) {
    auto found = manifest.find(name);
    ASSERT_NE(found, manifest.end()) << name << " is missing from MANIFEST";
    std::stringstream list(found->second.ops);
    std::string op;
    while (std::getline(list, op, ',')) ops.insert(op);
  }
  size_t total_cases = 0;
  for (const auto& name : names) {
    const AlignedFile file(kOpsDir + "/" + name + ".bpte");
    Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
    ASSERT_TRUE(bundle.ok()) << name << ": " << last_error_message();
    total_cases += *bundle->num_test_cases("forward");
  }
  printf("op suite: %zu files, %zu operators, %zu test cases\n", names.size(), ops.size(),
         total_cases);
  EXPECT_FALSE(names.empty());
}

}  // namespace
}  // namespace ember::testing
