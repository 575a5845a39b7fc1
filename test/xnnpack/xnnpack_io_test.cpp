// Graph inputs and outputs the program leaves to the application, when an
// XNNPACK delegate reads and writes them (examples/export/export_io.py:
// test/models/io/unplanned_xnnpack, MemoryPlanningPass(alloc_graph_input=
// False, alloc_graph_output=False), the whole graph in one delegate; and
// export_xnnpack.py's programs/unplanned_io.pte):
//  - on the caller's buffers the delegate's outputs match PyTorch, and
//    match the portable program exported the same way;
//  - executing with an output that has no memory is an Error naming it
//    before the delegate runs (XNNPACK aborted the process on a null
//    output pointer in softmax.c), never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "test/runtime/fixture_util.h"
#include "test/runtime/raw_method.h"

namespace ember::testing {
namespace {

const std::string kFixture = "io/unplanned_xnnpack";

// Runs every run folder of `fixture` on `m` with inputs from the folder
// bound in place and outputs written to `outputs`, checking each output
// against PyTorch's.
void run_on_caller_buffers(Method& m, const std::string& fixture,
                           std::vector<std::vector<float>>* outputs) {
  outputs->resize(m.outputs_size());
  for (size_t i = 0; i < m.outputs_size(); ++i) {
    Result<TensorInfo> info = m.method_meta().output_tensor_meta(i);
    ASSERT_TRUE(info.ok());
    ASSERT_FALSE(info->is_memory_planned());
    (*outputs)[i].assign(info->nbytes() / sizeof(float), -1.0f);
    ASSERT_EQ(m.set_output_data_ptr((*outputs)[i].data(), info->nbytes(), i), Error::Ok)
        << last_error_message();
  }
  const std::vector<std::string> runs = run_dirs(fixture, "forward");
  ASSERT_EQ(runs.size(), 2u);
  for (const std::string& dir : runs) {
    SCOPED_TRACE(dir);
    NpyTensors held;
    for (size_t i = 0; i < m.inputs_size(); ++i) {
      ASSERT_FALSE(m.method_meta().input_tensor_meta(i)->is_memory_planned());
      Result<NpyArray> a = read_npy(dir + "/input" + std::to_string(i) + ".npy");
      ASSERT_TRUE(a.ok()) << last_error_message();
      const Tensor t = held.add(*a);
      ASSERT_EQ(m.set_input(EValue(t), i), Error::Ok) << last_error_message();
      EXPECT_EQ(m.get_input(i).to_tensor().const_data_ptr(), t.const_data_ptr());
    }
    ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
    for (size_t i = 0; i < m.outputs_size(); ++i) {
      EXPECT_EQ(m.get_output(i).to_tensor().const_data_ptr(), (*outputs)[i].data());
      Result<NpyArray> expected = read_npy(dir + "/output" + std::to_string(i) + ".npy");
      ASSERT_TRUE(expected.ok());
      EXPECT_TRUE(output_matches(m.get_output(i), *expected, 1e-5, 1e-6)) << "output " << i;
    }
  }
}

TEST(XnnpackIo, UnplannedInputsAndOutputsOnCallerBuffersMatchPyTorch) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kFixture), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  EXPECT_TRUE(r->method->method_meta().uses_backend("XnnpackBackend"));
  std::vector<std::vector<float>> outputs;
  run_on_caller_buffers(*r->method, kFixture, &outputs);
}

// The differential test: the same module exported the same way without
// delegation, on the portable kernels, gives the same outputs.
TEST(XnnpackIo, MatchesThePortableProgram) {
  std::unique_ptr<Raw> delegated = load_raw_file(fixture_path(kFixture), "forward");
  std::unique_ptr<Raw> portable =
      load_raw_file(fixture_path("io/unplanned_portable"), "forward");
  ASSERT_NE(delegated, nullptr) << last_error_message();
  ASSERT_NE(portable, nullptr) << last_error_message();
  EXPECT_FALSE(portable->method->method_meta().uses_backend("XnnpackBackend"));
  std::vector<std::vector<float>> a, b;
  run_on_caller_buffers(*delegated->method, kFixture, &a);
  run_on_caller_buffers(*portable->method, "io/unplanned_portable", &b);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].size(), b[i].size());
    for (size_t j = 0; j < a[i].size(); ++j) {
      EXPECT_NEAR(a[i][j], b[i][j], 1e-5 * (1 + std::fabs(b[i][j])))
          << "output " << i << " element " << j;
    }
  }
}

TEST(XnnpackIo, ExecuteWithoutOutputMemoryIsAnErrorNotAnAbort) {
  for (const std::string& fixture : {kFixture, std::string("xnnpack/programs/unplanned_io")}) {
    SCOPED_TRACE(fixture);
    std::vector<uint8_t> bytes =
        read_file_bytes(fixture == kFixture ? fixture_path(fixture)
                                            : models_dir() + "/" + fixture + ".pte");
    ASSERT_FALSE(bytes.empty());
    std::unique_ptr<Raw> r = load_raw(std::move(bytes), "forward");
    ASSERT_NE(r, nullptr) << last_error_message();
    Method& m = *r->method;
    std::vector<std::vector<float>> inputs;
    std::vector<TensorImpl> impls;
    std::vector<std::vector<SizesType>> sizes(m.inputs_size());
    std::vector<std::vector<DimOrderType>> orders(m.inputs_size());
    std::vector<std::vector<StridesType>> strides(m.inputs_size());
    inputs.reserve(m.inputs_size());
    impls.reserve(m.inputs_size());
    for (size_t i = 0; i < m.inputs_size(); ++i) {
      TensorInfo info = *m.method_meta().input_tensor_meta(i);
      sizes[i].assign(info.sizes().begin(), info.sizes().end());
      for (size_t d = 0; d < sizes[i].size(); ++d) orders[i].push_back(DimOrderType(d));
      strides[i].resize(sizes[i].size());
      inputs.emplace_back(info.nbytes() / sizeof(float), 0.5f);
      impls.emplace_back(ScalarType::Float, sizes[i].size(), sizes[i].data(),
                         inputs.back().data(), orders[i].data(), strides[i].data());
      ASSERT_EQ(m.set_input(EValue(Tensor(&impls.back())), i), Error::Ok)
          << last_error_message();
    }
    EXPECT_EQ(m.execute(), Error::InvalidState);
    const std::string message = last_error_message();
    EXPECT_NE(message.find("method 'forward': output 0 has no memory"), std::string::npos)
        << message;
  }
}

// Module gives the unplanned outputs memory when it loads the method; the
// delegate writes there.
TEST(XnnpackIo, ModuleRunsTheUnplannedProgram) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path(kFixture));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> m = (*module)->method("forward");
  ASSERT_TRUE(m.ok()) << last_error_message();
  run_and_check(**m, kFixture, "forward");
}

}  // namespace
}  // namespace ember::testing
