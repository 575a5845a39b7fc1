// Files written by upstream ExecuTorch itself (kept outside the project, in
// ../shared/upstream-pte): the outside check of wire compatibility. Skipped
// when that folder is not present (a clone on its own).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "extension/data_loader/file_data_loader.h"
#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"

namespace ember::testing {
namespace {

std::string upstream(const std::string& name) {
  return std::string(EMBER_UPSTREAM_PTE_DIR) + "/" + name;
}

#define SKIP_IF_ABSENT(path)                                         \
  if (!std::filesystem::exists(path)) {                              \
    GTEST_SKIP() << path << " not present (upstream files are kept " \
                            "outside the project)";                  \
  }

std::vector<float> run_with_ones(const std::string& path, Module::LoadMode mode,
                                 Program::Verification verification) {
  Result<std::unique_ptr<Module>> module = Module::load(path, mode, verification);
  EXPECT_TRUE(module.ok()) << last_error_message();
  if (!module.ok()) return {};
  Result<Method*> method = (*module)->method("forward");
  EXPECT_TRUE(method.ok()) << last_error_message();
  if (!method.ok()) return {};
  Result<InputBuffers> inputs = prepare_input_tensors(**method);
  EXPECT_TRUE(inputs.ok()) << last_error_message();
  EXPECT_EQ((*method)->execute(), Error::Ok) << last_error_message();
  const Tensor out = (*method)->get_output(0).to_tensor();
  const float* data = out.const_data_ptr<float>();
  return std::vector<float>(data, data + out.numel());
}

class UpstreamTest : public ::testing::TestWithParam<
                         std::tuple<Module::LoadMode, Program::Verification>> {};

TEST_P(UpstreamTest, AddGivesTwo) {
  const std::string path = upstream("add.pte");
  SKIP_IF_ABSENT(path);
  std::vector<float> out =
      run_with_ones(path, std::get<0>(GetParam()), std::get<1>(GetParam()));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], 2.0f);
}

TEST_P(UpstreamTest, InlineConstantsLinearGivesFive) {
  const std::string path = upstream("module_linear_inline_constants.pte");
  SKIP_IF_ABSENT(path);
  std::vector<float> out =
      run_with_ones(path, std::get<0>(GetParam()), std::get<1>(GetParam()));
  ASSERT_EQ(out.size(), 4u);
  for (float v : out) EXPECT_EQ(v, 5.0f);
}

INSTANTIATE_TEST_SUITE_P(
    Loaders, UpstreamTest,
    ::testing::Combine(::testing::Values(Module::LoadMode::File, Module::LoadMode::Mmap,
                                         Module::LoadMode::Buffer),
                       ::testing::Values(Program::Verification::Minimal,
                                         Program::Verification::InternalConsistency)));

TEST(Upstream, CortexMNamesEveryMissingOperator) {
  const std::string path = upstream("keyword_spotting_cortex_m.pte");
  SKIP_IF_ABSENT(path);
  Result<std::unique_ptr<Module>> module =
      Module::load(path, Module::LoadMode::Mmap, Program::Verification::InternalConsistency);
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::OperatorMissing);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("missing operator"), std::string::npos) << message;
  EXPECT_NE(message.find("cortex_m::"), std::string::npos) << message;
  // Every operator the method references that is not registered is named.
  Result<MethodMeta> meta = (*module)->program().method_meta("forward");
  ASSERT_TRUE(meta.ok());
  size_t count = 0;
  for (size_t pos = message.find("cortex_m::"); pos != std::string::npos;
       pos = message.find("cortex_m::", pos + 1)) {
    ++count;
  }
  EXPECT_GE(count, 2u) << message;
}

TEST(Upstream, QnnNamesTheUnregisteredBackend) {
  const std::string path = upstream("stories260k_qnn_delegated.pte");
  SKIP_IF_ABSENT(path);
  Result<std::unique_ptr<Module>> module = Module::load(path);
  ASSERT_TRUE(module.ok()) << last_error_message();
  // The delegated methods are kv_forward / prefill_forward: find them.
  std::string delegated;
  for (const std::string& name : (*module)->method_names()) {
    Result<MethodMeta> meta = (*module)->program().method_meta(name.c_str());
    ASSERT_TRUE(meta.ok()) << last_error_message();
    if (meta->num_backends() > 0 && delegated.empty()) delegated = name;
  }
  ASSERT_FALSE(delegated.empty());
  const std::string backend =
      *(*module)->program().method_meta(delegated.c_str())->get_backend_name(0);
  EXPECT_EQ(backend, "QnnBackend");
  Result<Method*> method = (*module)->method(delegated);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::NotFound);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("not registered"), std::string::npos) << message;
  EXPECT_NE(message.find(backend), std::string::npos) << message;
}

TEST(Upstream, BundledProgramIsNotAPlainProgramButModuleRunsIt) {
  const std::string path = upstream("bundled_add_mul_int.bpte");
  SKIP_IF_ABSENT(path);
  // Program::load takes .pte bytes only, and says what a .bpte is.
  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str());
  ASSERT_TRUE(loader.ok());
  Result<Program> program = Program::load(&*loader);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("bundled"), std::string::npos)
      << last_error_message();
  // Module opens the bundle's embedded program, and its test cases verify.
  Result<std::unique_ptr<Module>> module = Module::load(path);
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<VerifyReport> report = (*module)->verify(0);
  ASSERT_TRUE(report.ok()) << last_error_message();
  EXPECT_TRUE(report->passed) << report->message;
}

}  // namespace
}  // namespace ember::testing
