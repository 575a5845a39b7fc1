// Every committed fixture loads and runs with outputs matching PyTorch's,
// through every data loader and both verification levels.
#include <gtest/gtest.h>

#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "test/runtime/fixture_util.h"

namespace ember::testing {
namespace {

struct FixtureCase {
  const char* name;
  std::vector<const char*> methods;
};

const std::vector<FixtureCase>& fixtures() {
  static const std::vector<FixtureCase> cases = {
      {"add", {"forward"}},        {"linear", {"forward"}},
      {"linear_inline", {"forward"}}, {"two_methods", {"forward", "double_it"}},
      {"stateful", {"forward"}},   {"dynamic", {"forward"}},
      {"int_bool", {"forward"}},   {"mlp", {"forward"}},
      {"convnet", {"forward"}},    {"scalar_ops", {"forward"}},
    {"cond", {"forward"}},
  };
  return cases;
}

using Param = std::tuple<size_t, Module::LoadMode, Program::Verification>;

class FixtureTest : public ::testing::TestWithParam<Param> {};

TEST_P(FixtureTest, OutputsMatchPyTorch) {
  const FixtureCase& fixture = fixtures()[std::get<0>(GetParam())];
  Result<std::unique_ptr<Module>> module =
      Module::load(fixture_path(fixture.name), std::get<1>(GetParam()),
                   std::get<2>(GetParam()));
  ASSERT_TRUE(module.ok()) << last_error_message();
  EXPECT_EQ((*module)->program().num_methods(), fixture.methods.size());
  for (const char* method_name : fixture.methods) {
    SCOPED_TRACE(method_name);
    Result<Method*> method = (*module)->method(method_name);
    ASSERT_TRUE(method.ok()) << last_error_message();
    run_and_check(**method, fixture.name, method_name);
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(fixtures()[std::get<0>(info.param)].name) + "_" +
         Module::load_mode_name(std::get<1>(info.param)) + "_" +
         (std::get<2>(info.param) == Program::Verification::Minimal ? "Minimal" : "Full");
}

INSTANTIATE_TEST_SUITE_P(
    AllFixtures, FixtureTest,
    ::testing::Combine(::testing::Range(size_t(0), fixtures().size()),
                       ::testing::Values(Module::LoadMode::File, Module::LoadMode::Mmap,
                                         Module::LoadMode::Buffer),
                       ::testing::Values(Program::Verification::Minimal,
                                         Program::Verification::InternalConsistency)),
    param_name);

TEST(FixtureMeta, LinearReportsInputsOutputsAndBuffers) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("linear"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<MethodMeta> meta = (*module)->program().method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_STREQ(meta->name(), "forward");
  ASSERT_EQ(meta->num_inputs(), 1u);
  Result<TensorInfo> in = meta->input_tensor_meta(0);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->scalar_type(), ScalarType::Float);
  ASSERT_EQ(in->sizes().size(), 2u);
  EXPECT_EQ(in->sizes()[0], 2);
  EXPECT_EQ(in->sizes()[1], 4);
  EXPECT_EQ(in->nbytes(), 2u * 4u * 4u);
  ASSERT_EQ(meta->num_outputs(), 1u);
  Result<TensorInfo> out = meta->output_tensor_meta(0);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->sizes()[1], 3);
  EXPECT_GE(meta->num_memory_planned_buffers(), 1u);
  EXPECT_EQ(meta->num_backends(), 0u);
  EXPECT_FALSE(meta->input_tensor_meta(1).ok());
  EXPECT_FALSE(meta->memory_planned_buffer_size(99).ok());
  EXPECT_FALSE((*module)->program().method_meta("nope").ok());
}

TEST(FixtureMeta, TwoMethodsAreListed) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("two_methods"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  std::vector<std::string> names = (*module)->method_names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_NE(std::find(names.begin(), names.end(), "forward"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "double_it"), names.end());
  Result<Method*> missing = (*module)->method("nope");
  EXPECT_EQ(missing.error(), Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("nope"), std::string::npos);
}

TEST(FixtureState, StatefulStartsFromItsSerializedInitialValueAfterReload) {
  // Two independent loads both start from the initial buffer value: state
  // lives in each method's planned memory, not in the file.
  for (int i = 0; i < 2; ++i) {
    Result<std::unique_ptr<Module>> module = Module::load(fixture_path("stateful"));
    ASSERT_TRUE(module.ok()) << last_error_message();
    Result<Method*> method = (*module)->method("forward");
    ASSERT_TRUE(method.ok()) << last_error_message();
    run_and_check(**method, "stateful", "forward");
  }
}

TEST(FixtureInputs, DynamicInputRefusesGrowthBeyondBound) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("dynamic"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  InputBuffers buffers;
  Result<TensorInfo> info = (*method)->method_meta().input_tensor_meta(0);
  ASSERT_TRUE(info.ok());
  std::vector<int32_t> big(info->sizes().begin(), info->sizes().end());
  big[0] += 1;
  TensorInfo bigger({big.data(), big.size()}, info->dim_order(), info->scalar_type(),
                    ShapeDynamism::Static, info->nbytes() / size_t(info->sizes()[0]) * size_t(big[0]));
  EXPECT_EQ((*method)->set_input(EValue(*buffers.make_filled(bigger, 1.0)), 0),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("capacity"), std::string::npos)
      << last_error_message();
}

TEST(FixtureInputs, StaticInputRefusesOtherShapesAndDtypes) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("add"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  InputBuffers buffers;
  Result<TensorInfo> info = (*method)->method_meta().input_tensor_meta(0);
  ASSERT_TRUE(info.ok());
  std::vector<int32_t> smaller(info->sizes().begin(), info->sizes().end());
  smaller[0] = 1;
  TensorInfo small({smaller.data(), smaller.size()}, info->dim_order(),
                   info->scalar_type(), ShapeDynamism::Static, 64);
  EXPECT_EQ((*method)->set_input(EValue(*buffers.make_filled(small, 1.0)), 0),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("static"), std::string::npos)
      << last_error_message();
  TensorInfo wrong_type(info->sizes(), info->dim_order(), ScalarType::Long,
                        ShapeDynamism::Static, 64);
  EXPECT_EQ((*method)->set_input(EValue(*buffers.make_filled(wrong_type, 1.0)), 0),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("dtype"), std::string::npos);
  EXPECT_EQ((*method)->set_input(EValue(int64_t(3)), 0), Error::InvalidArgument);
  EXPECT_EQ((*method)->set_input(EValue(*buffers.make_filled(*info, 1.0)), 7),
            Error::InvalidArgument);
}

TEST(FixtureInputs, ExecuteRefusesUnsetInputs) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("add"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  EXPECT_EQ((*method)->execute(), Error::InvalidState);
  EXPECT_NE(std::string(last_error_message()).find("not set"), std::string::npos);
}

}  // namespace
}  // namespace ember::testing
