// Graph inputs and outputs the program leaves to the application
// (runtime/executor/method.cpp: set_input, set_output_data_ptr, execute's
// memory check; MethodMeta's is_memory_planned), on fixtures written by
// upstream's exporter (examples/export/export_io.py, test/models/io):
//  - unplanned_portable: MemoryPlanningPass(alloc_graph_input=False,
//    alloc_graph_output=False), portable kernels; run on caller buffers
//    and checked against PyTorch;
//  - no_forward: two methods, neither named forward.
// The XNNPACK-delegated twin is tested in test/xnnpack.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "test/runtime/fixture_util.h"
#include "test/runtime/raw_method.h"

namespace ember::testing {
namespace {

const std::string kUnplanned = "io/unplanned_portable";

// Sets every input of `m` from run folder `dir` (tensors owned by `held`).
void set_inputs(Method& m, NpyTensors& held, const std::string& dir) {
  for (size_t i = 0; i < m.inputs_size(); ++i) {
    Result<NpyArray> a = read_npy(dir + "/input" + std::to_string(i) + ".npy");
    ASSERT_TRUE(a.ok()) << last_error_message();
    ASSERT_EQ(m.set_input(EValue(held.add(*a)), i), Error::Ok) << last_error_message();
  }
}

TEST(MethodIo, MetaSaysWhichInputsAndOutputsAreMemoryPlanned) {
  Result<std::unique_ptr<Module>> unplanned = Module::load(fixture_path(kUnplanned));
  ASSERT_TRUE(unplanned.ok()) << last_error_message();
  MethodMeta meta = *(*unplanned)->program().method_meta("forward");
  ASSERT_EQ(meta.num_inputs(), 2u);
  ASSERT_EQ(meta.num_outputs(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_FALSE(meta.input_tensor_meta(i)->is_memory_planned()) << "input " << i;
    EXPECT_FALSE(meta.output_tensor_meta(i)->is_memory_planned()) << "output " << i;
    EXPECT_GT(meta.output_tensor_meta(i)->nbytes(), 0u);
  }
  Result<std::unique_ptr<Module>> planned = Module::load(fixture_path("add"));
  ASSERT_TRUE(planned.ok()) << last_error_message();
  MethodMeta add = *(*planned)->program().method_meta("forward");
  EXPECT_TRUE(add.input_tensor_meta(0)->is_memory_planned());
  EXPECT_TRUE(add.output_tensor_meta(0)->is_memory_planned());
}

// Inputs bound to the caller's data on every set_input (a second call
// with other buffers rebinds, never writes into the first), outputs
// written into the caller's buffers; both runs match PyTorch.
TEST(MethodIo, UnplannedProgramRunsOnCallerBuffersAndMatchesPyTorch) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kUnplanned), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  Method& m = *r->method;
  std::vector<std::vector<float>> outputs(m.outputs_size());
  for (size_t i = 0; i < m.outputs_size(); ++i) {
    const size_t nbytes = m.method_meta().output_tensor_meta(i)->nbytes();
    outputs[i].assign(nbytes / sizeof(float), -1.0f);
    ASSERT_EQ(m.set_output_data_ptr(outputs[i].data(), nbytes, i), Error::Ok)
        << last_error_message();
  }
  const std::vector<std::string> runs = run_dirs(kUnplanned, "forward");
  ASSERT_EQ(runs.size(), 2u);
  std::vector<NpyTensors> held(runs.size());  // every run's inputs stay alive
  for (size_t k = 0; k < runs.size(); ++k) {
    SCOPED_TRACE(runs[k]);
    set_inputs(m, held[k], runs[k]);
    for (size_t i = 0; i < m.inputs_size(); ++i) {
      Result<NpyArray> a = read_npy(runs[k] + "/input" + std::to_string(i) + ".npy");
      ASSERT_TRUE(a.ok());
      const void* bound = m.get_input(i).to_tensor().const_data_ptr();
      ASSERT_NE(bound, nullptr);
      EXPECT_EQ(std::memcmp(bound, a->data.data(), a->data.size()), 0);
    }
    ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
    for (size_t i = 0; i < m.outputs_size(); ++i) {
      EXPECT_EQ(m.get_output(i).to_tensor().const_data_ptr(), outputs[i].data());
      Result<NpyArray> expected = read_npy(runs[k] + "/output" + std::to_string(i) + ".npy");
      ASSERT_TRUE(expected.ok());
      EXPECT_TRUE(output_matches(m.get_output(i), *expected)) << "output " << i;
    }
  }
}

TEST(MethodIo, InputsAreBoundEveryCallNotCopiedIntoTheFirstBuffer) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kUnplanned), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  Method& m = *r->method;
  std::vector<float> first(24, 1.0f), second(24, 2.0f);
  SizesType sizes[2] = {3, 8};
  DimOrderType order[2] = {0, 1};
  StridesType strides[2] = {};
  TensorImpl a(ScalarType::Float, 2, sizes, first.data(), order, strides);
  TensorImpl b(ScalarType::Float, 2, sizes, second.data(), order, strides);
  ASSERT_EQ(m.set_input(EValue(Tensor(&a)), 0), Error::Ok) << last_error_message();
  EXPECT_EQ(m.get_input(0).to_tensor().const_data_ptr(), first.data());
  ASSERT_EQ(m.set_input(EValue(Tensor(&b)), 0), Error::Ok) << last_error_message();
  EXPECT_EQ(m.get_input(0).to_tensor().const_data_ptr(), second.data());
  EXPECT_EQ(first, std::vector<float>(24, 1.0f));  // the first buffer untouched
}

TEST(MethodIo, ExecuteWithoutOutputMemoryIsAnErrorNamingTheOutput) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kUnplanned), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  Method& m = *r->method;
  NpyTensors held;
  set_inputs(m, held, run_dirs(kUnplanned, "forward")[0]);
  EXPECT_EQ(m.execute(), Error::InvalidState);
  std::string message = last_error_message();
  EXPECT_NE(message.find("method 'forward': output 0 has no memory"), std::string::npos)
      << message;
  EXPECT_NE(message.find("set_output_data_ptr"), std::string::npos) << message;
  // With output 0 given memory, output 1 is named next.
  std::vector<float> out0(18);
  ASSERT_EQ(m.set_output_data_ptr(out0.data(), out0.size() * sizeof(float), 0), Error::Ok);
  EXPECT_EQ(m.execute(), Error::InvalidState);
  message = last_error_message();
  EXPECT_NE(message.find("output 1 has no memory"), std::string::npos) << message;
  // Nothing ran: output 0 is unwritten.
  EXPECT_EQ(out0, std::vector<float>(18, 0.0f));
}

TEST(MethodIo, UnplannedInputWithoutDataIsRefusedNamingIt) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kUnplanned), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  SizesType sizes[2] = {3, 6};
  DimOrderType order[2] = {0, 1};
  StridesType strides[2] = {};
  TensorImpl empty(ScalarType::Float, 2, sizes, nullptr, order, strides);
  EXPECT_EQ(r->method->set_input(EValue(Tensor(&empty)), 1), Error::InvalidArgument);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("input 1: tensor has no data"), std::string::npos) << message;
  // Misaligned caller data is refused too (kernels read typed pointers).
  std::vector<float> storage(19);
  TensorImpl odd(ScalarType::Float, 2, sizes,
                 reinterpret_cast<uint8_t*>(storage.data()) + 1, order, strides);
  EXPECT_EQ(r->method->set_input(EValue(Tensor(&odd)), 1), Error::InvalidArgument);
}

TEST(MethodIo, SetOutputDataPtrChecksIndexKindSizeAndAlignment) {
  std::unique_ptr<Raw> r = load_raw_file(fixture_path(kUnplanned), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  Method& m = *r->method;
  std::vector<float> buffer(32);
  const size_t nbytes = 18 * sizeof(float);  // [3, 6] float
  EXPECT_EQ(m.set_output_data_ptr(buffer.data(), nbytes - 1, 0), Error::InvalidArgument);
  std::string message = last_error_message();
  EXPECT_NE(message.find("output 0: buffer of 71 bytes, the output needs 72"),
            std::string::npos)
      << message;
  EXPECT_EQ(m.set_output_data_ptr(nullptr, nbytes, 0), Error::InvalidArgument);
  EXPECT_EQ(m.set_output_data_ptr(reinterpret_cast<uint8_t*>(buffer.data()) + 2, nbytes, 0),
            Error::InvalidArgument);
  EXPECT_EQ(m.set_output_data_ptr(buffer.data(), nbytes, 2), Error::InvalidArgument);
  message = last_error_message();
  EXPECT_NE(message.find("output index 2 out of range (2 outputs)"), std::string::npos)
      << message;
  EXPECT_EQ(m.get_output(0).to_tensor().const_data_ptr(), nullptr);  // nothing was set
  EXPECT_EQ(m.set_output_data_ptr(buffer.data(), nbytes, 0), Error::Ok);
  // A larger buffer is fine, and it can be changed again.
  std::vector<float> other(64);
  EXPECT_EQ(m.set_output_data_ptr(other.data(), other.size() * sizeof(float), 0), Error::Ok);
  EXPECT_EQ(m.get_output(0).to_tensor().const_data_ptr(), other.data());
}

TEST(MethodIo, SetOutputDataPtrOnAPlannedOutputIsRefused) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("add"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> m = (*module)->method("forward");
  ASSERT_TRUE(m.ok()) << last_error_message();
  const void* before = (*m)->get_output(0).to_tensor().const_data_ptr();
  std::vector<float> buffer(64);
  EXPECT_EQ((*m)->set_output_data_ptr(buffer.data(), buffer.size() * sizeof(float), 0),
            Error::InvalidState);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("output 0 has memory from the program"), std::string::npos)
      << message;
  EXPECT_EQ((*m)->get_output(0).to_tensor().const_data_ptr(), before);
}

// Module gives unplanned outputs memory when it loads the method.
TEST(MethodIo, ModuleRunsTheUnplannedProgram) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path(kUnplanned));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> m = (*module)->method("forward");
  ASSERT_TRUE(m.ok()) << last_error_message();
  run_and_check(**m, kUnplanned, "forward");
  // The application may still hand its own buffer.
  std::vector<float> mine(18, -1.0f);
  ASSERT_EQ((*m)->set_output_data_ptr(mine.data(), mine.size() * sizeof(float), 1), Error::Ok);
  run_and_check(**m, kUnplanned, "forward");
  EXPECT_EQ((*m)->get_output(1).to_tensor().const_data_ptr(), mine.data());
}

// A program exported with several methods, none named forward (what
// upstream's LLM exports look like): both run and match PyTorch; the
// program's first method is kv_forward (the emitter sorts them).
TEST(MethodIo, ProgramWithoutForwardRunsItsMethods) {
  Result<std::unique_ptr<Module>> module = Module::load(fixture_path("io/no_forward"));
  ASSERT_TRUE(module.ok()) << last_error_message();
  EXPECT_EQ((*module)->method_names(),
            (std::vector<std::string>{"kv_forward", "prefill_forward"}));
  EXPECT_FALSE((*module)->method("forward").ok());
  EXPECT_NE(std::string(last_error_message()).find("no method named 'forward'"),
            std::string::npos);
  for (const char* name : {"prefill_forward", "kv_forward"}) {
    SCOPED_TRACE(name);
    Result<Method*> m = (*module)->method(name);
    ASSERT_TRUE(m.ok()) << last_error_message();
    run_and_check(**m, "io/no_forward", name);
  }
}

// The method name comes from the file: a control byte in it is escaped
// in the message execute() writes.
TEST(MethodIo, MessagesEscapeTheMethodName) {
  std::vector<uint8_t> bytes = read_file_bytes(fixture_path(kUnplanned));
  const std::string needle = "forward";
  size_t found = 0, at = 0;
  for (size_t i = 0; i + needle.size() < bytes.size(); ++i) {
    if (std::memcmp(&bytes[i], needle.data(), needle.size()) == 0 &&
        bytes[i + needle.size()] == 0) {
      ++found;
      at = i;
    }
  }
  ASSERT_EQ(found, 1u);
  bytes[at + 4] = 0x1b;  // "forw\x1brd"
  std::unique_ptr<Raw> r = load_raw(std::move(bytes), "forw\x1b" "rd");
  ASSERT_NE(r, nullptr) << last_error_message();
  NpyTensors held;
  set_inputs(*r->method, held, run_dirs(kUnplanned, "forward")[0]);
  EXPECT_EQ(r->method->execute(), Error::InvalidState);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("method 'forw\\x1brd': output 0 has no memory"), std::string::npos)
      << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  // And in the not-found message of a name the caller passes.
  EXPECT_FALSE(r->program->method_meta("bad\x07name").ok());
  EXPECT_NE(std::string(last_error_message()).find("'bad\\x07name'"), std::string::npos);
}

}  // namespace
}  // namespace ember::testing
