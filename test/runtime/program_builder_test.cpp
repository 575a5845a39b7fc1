// Programs built in the test with the flatbuffers builder: control flow,
// moves, registry errors and the backend interface, including hostile
// shapes of the instruction stream (loops, bad jumps, type-changing moves).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/operator_registry.h"
#include "schema/program_generated.h"

namespace ember::testing {
namespace {

namespace fb = ember_fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// Test kernel: increments the Int value it is given.
void increment(KernelContext& context, Span<EValue*> args) {
  if (args.size() != 1 || !args[0]->is_int()) {
    set_error_message("test::increment takes one Int");
    context.fail(Error::InvalidProgram);
    return;
  }
  *args[0] = EValue(args[0]->to_int() + 1);
}
EMBER_REGISTER_KERNEL("ember_test::increment", increment);

// Describes a one-method program to build.
struct Spec {
  std::vector<std::function<Offset<fb::EValue>(FlatBufferBuilder&)>> values;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<std::pair<std::string, std::string>> operators;
  std::vector<std::function<Offset<fb::Instruction>(FlatBufferBuilder&)>> instructions;
  std::vector<std::string> delegate_ids;
  std::vector<std::pair<std::string, std::string>> compile_specs;  // for every delegate
  std::string delegate_blob = "blob-bytes";
  std::string method_name = "forward";
};

std::vector<uint8_t> build(const Spec& spec) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::EValue>> values;
  for (const auto& v : spec.values) values.push_back(v(b));
  std::vector<Offset<fb::Operator>> ops;
  for (const auto& op : spec.operators) {
    ops.push_back(fb::CreateOperator(b, b.CreateString(op.first), b.CreateString(op.second)));
  }
  std::vector<Offset<fb::Instruction>> instructions;
  for (const auto& i : spec.instructions) instructions.push_back(i(b));
  auto chain = fb::CreateChain(b, b.CreateVector(std::vector<int32_t>{}),
                               b.CreateVector(std::vector<int32_t>{}),
                               b.CreateVector(instructions));
  std::vector<Offset<fb::BackendDelegate>> delegates;
  for (const std::string& id : spec.delegate_ids) {
    std::vector<Offset<fb::CompileSpec>> specs;
    for (const auto& cs : spec.compile_specs) {
      specs.push_back(fb::CreateCompileSpec(
          b, b.CreateString(cs.first),
          b.CreateVector(reinterpret_cast<const uint8_t*>(cs.second.data()), cs.second.size())));
    }
    delegates.push_back(fb::CreateBackendDelegate(
        b, b.CreateString(id),
        fb::CreateBackendDelegateDataReference(b, fb::DataLocation::INLINE, 0),
        b.CreateVector(specs)));
  }
  auto plan = fb::CreateExecutionPlan(
      b, b.CreateString(spec.method_name), 0, b.CreateVector(values), b.CreateVector(spec.inputs),
      b.CreateVector(spec.outputs), b.CreateVector(std::vector<Offset<fb::Chain>>{chain}),
      b.CreateVector(ops), b.CreateVector(delegates),
      b.CreateVector(std::vector<int64_t>{0}));
  auto blob = fb::CreateBackendDelegateInlineData(
      b, b.CreateVector(reinterpret_cast<const uint8_t*>(spec.delegate_blob.data()),
                        spec.delegate_blob.size()));
  auto program = fb::CreateProgram(
      b, 0, b.CreateVector(std::vector<Offset<fb::ExecutionPlan>>{plan}), 0,
      b.CreateVector(std::vector<Offset<fb::BackendDelegateInlineData>>{blob}));
  fb::FinishProgramBuffer(b, program);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

auto int_value(int64_t v) {
  return [v](FlatBufferBuilder& b) {
    return fb::CreateEValue(b, fb::KernelTypes::Int, fb::CreateInt(b, v).Union());
  };
}
auto bool_value(bool v) {
  return [v](FlatBufferBuilder& b) {
    return fb::CreateEValue(b, fb::KernelTypes::Bool, fb::CreateBool(b, v).Union());
  };
}
auto tensor_list_value(std::vector<int32_t> items) {
  return [items](FlatBufferBuilder& b) {
    return fb::CreateEValue(b, fb::KernelTypes::TensorList,
                            fb::CreateTensorList(b, b.CreateVector(items)).Union());
  };
}
auto kernel_call(int32_t op, std::vector<int32_t> args) {
  return [op, args](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::KernelCall,
                                 fb::CreateKernelCall(b, op, b.CreateVector(args)).Union());
  };
}
auto delegate_call(int32_t index, std::vector<int32_t> args) {
  return [index, args](FlatBufferBuilder& b) {
    return fb::CreateInstruction(
        b, fb::InstructionArguments::DelegateCall,
        fb::CreateDelegateCall(b, index, b.CreateVector(args)).Union());
  };
}
auto jump_false(int32_t cond, int32_t destination) {
  return [cond, destination](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::JumpFalseCall,
                                 fb::CreateJumpFalseCall(b, cond, destination).Union());
  };
}
auto move_call(int32_t from, int32_t to) {
  return [from, to](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::MoveCall,
                                 fb::CreateMoveCall(b, from, to).Union());
  };
}
auto free_call(int32_t value) {
  return [value](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::FreeCall,
                                 fb::CreateFreeCall(b, value).Union());
  };
}

// Loads `bytes` and the method "forward" into owned memory.
struct Loaded {
  explicit Loaded(const std::vector<uint8_t>& bytes,
                  Program::Verification level = Program::Verification::Minimal)
      : data(bytes), loader(data.data(), data.size()), pool(64 * 1024),
        allocator(pool.data(), pool.size()), memory(&allocator) {
    Result<Program> p = Program::load(&loader, level);
    program_error = p.ok() ? Error::Ok : p.error();
    if (!p.ok()) return;
    program = std::make_unique<Program>(std::move(*p));
    Result<Method> m = program->load_method("forward", &memory);
    method_error = m.ok() ? Error::Ok : m.error();
    if (m.ok()) method = std::make_unique<Method>(std::move(*m));
  }
  std::vector<uint8_t> data;
  BufferDataLoader loader;
  std::vector<uint8_t> pool;
  MemoryAllocator allocator;
  MemoryManager memory;
  std::unique_ptr<Program> program;
  std::unique_ptr<Method> method;
  Error program_error = Error::Ok;
  Error method_error = Error::Internal;
};

TEST(ControlFlow, JumpFalseSkipsWhenFalseAndFallsThroughWhenTrue) {
  for (bool cond : {false, true}) {
    Spec spec;
    spec.values = {int_value(0), bool_value(cond)};
    spec.outputs = {0};
    spec.operators = {{"ember_test::increment", ""}};
    spec.instructions = {jump_false(1, 2), kernel_call(0, {0}), kernel_call(0, {0})};
    Loaded l(build(spec));
    ASSERT_EQ(l.method_error, Error::Ok) << last_error_message();
    ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(l.method->get_output(0).to_int(), cond ? 2 : 1);
  }
}

// torch.cond exports jump to one past the last instruction: the chain
// ends there.
TEST(ControlFlow, JumpToTheEndEndsTheChain) {
  for (bool cond : {false, true}) {
    Spec spec;
    spec.values = {int_value(0), bool_value(cond)};
    spec.outputs = {0};
    spec.operators = {{"ember_test::increment", ""}};
    spec.instructions = {jump_false(1, 3), kernel_call(0, {0}), kernel_call(0, {0})};
    Loaded l(build(spec));
    ASSERT_EQ(l.method_error, Error::Ok) << last_error_message();
    ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(l.method->get_output(0).to_int(), cond ? 2 : 0);
  }
}

TEST(ControlFlow, InstructionLoopStopsAtTheLimit) {
  Spec spec;
  spec.values = {int_value(0), bool_value(false)};
  spec.outputs = {0};
  spec.operators = {{"ember_test::increment", ""}};
  spec.instructions = {kernel_call(0, {0}), jump_false(1, 0)};  // loops forever
  Loaded l(build(spec));
  ASSERT_EQ(l.method_error, Error::Ok) << last_error_message();
  l.method->set_instruction_limit(1000);
  EXPECT_EQ(l.method->execute(), Error::ExecutionLimit);
  EXPECT_NE(std::string(last_error_message()).find("instruction limit of 1000"),
            std::string::npos);
  EXPECT_EQ(l.method->get_output(0).to_int(), 500);
}

TEST(ControlFlow, JumpOutsideTheChainIsRejected) {
  Spec spec;
  spec.values = {bool_value(false)};
  spec.instructions = {jump_false(0, 5)};
  for (auto level :
       {Program::Verification::Minimal, Program::Verification::InternalConsistency}) {
    Loaded l(build(spec), level);
    EXPECT_TRUE(l.program_error != Error::Ok || l.method_error != Error::Ok);
    EXPECT_NE(std::string(last_error_message()).find("jump to instruction 5"),
              std::string::npos)
        << last_error_message();
  }
}

// The method name is read from the file: the whole-program check prints it
// escaped.
TEST(ControlFlow, ValidationMessagesEscapeTheMethodName) {
  Spec spec;
  spec.method_name = "fw\x1b[31m";
  spec.values = {bool_value(false)};
  spec.instructions = {jump_false(0, 5)};
  Loaded l(build(spec), Program::Verification::InternalConsistency);
  EXPECT_EQ(l.program_error, Error::InvalidProgram);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("method 'fw\\x1b[31m' chain 0 instruction 0"), std::string::npos)
      << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
}

TEST(ControlFlow, MoveCopiesValueAndRefusesTypeChange) {
  Spec spec;
  spec.values = {int_value(5), int_value(0)};
  spec.outputs = {1};
  spec.instructions = {move_call(0, 1)};
  Loaded ok(build(spec));
  ASSERT_EQ(ok.method_error, Error::Ok) << last_error_message();
  ASSERT_EQ(ok.method->execute(), Error::Ok);
  EXPECT_EQ(ok.method->get_output(0).to_int(), 5);

  spec.values = {int_value(5), bool_value(false)};
  Loaded bad(build(spec));
  EXPECT_EQ(bad.method_error, Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("different types"), std::string::npos);
}

TEST(ControlFlow, FreeOfANonTensorIsRejected) {
  Spec spec;
  spec.values = {int_value(1)};
  spec.instructions = {free_call(0)};
  Loaded l(build(spec));
  EXPECT_EQ(l.method_error, Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("not a Tensor"), std::string::npos);
}

TEST(Values, TensorListOfAnIntIsRejected) {
  Spec spec;
  spec.values = {int_value(1), tensor_list_value({0})};
  Loaded l(build(spec));
  EXPECT_EQ(l.method_error, Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("TensorList"), std::string::npos);
}

TEST(Values, EmptyMethodRuns) {
  Spec spec;
  Loaded l(build(spec), Program::Verification::InternalConsistency);
  ASSERT_EQ(l.method_error, Error::Ok) << last_error_message();
  EXPECT_EQ(l.method->execute(), Error::Ok);
}

TEST(Registry, EveryMissingOperatorIsNamedInOneMessage) {
  Spec spec;
  spec.values = {int_value(0)};
  spec.operators = {{"foo::bar", "baz"}, {"ember_test::increment", ""},
                    {"aten::does_not_exist", "out"}};
  Loaded l(build(spec));
  EXPECT_EQ(l.method_error, Error::OperatorMissing);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("2 missing operator(s): foo::bar.baz, aten::does_not_exist.out"),
            std::string::npos)
      << message;
}

TEST(Registry, DuplicateKernelRegistrationIsRefused) {
  EXPECT_EQ(register_kernel(Kernel{"ember_test::increment", increment}),
            Error::InvalidArgument);
  EXPECT_NE(find_kernel("ember_test::increment", ""), nullptr);
  EXPECT_EQ(find_kernel("ember_test::increment", "out"), nullptr);
}

// A backend that records what the runtime gives it.
struct RecordingBackend final : BackendInterface {
  mutable std::string blob;
  mutable std::vector<std::pair<std::string, std::string>> specs;
  mutable int executions = 0;
  mutable int destroyed = 0;
  mutable std::vector<const EValue*> init_call_args;
  bool fail_init = false;

  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override {
    if (fail_init) {
      set_error_message("blob rejected by test");
      return Error::DelegateInvalidCompatibility;
    }
    blob.assign(static_cast<const char*>(processed->data()), processed->size());
    init_call_args.assign(context.call_args().begin(), context.call_args().end());
    for (const CompileSpec& s : compile_specs) {
      specs.emplace_back(s.key, std::string(reinterpret_cast<const char*>(s.value.data()),
                                            s.value.size()));
    }
    int* state = context.allocator()->allocate_array<int>(1);
    *state = 41;
    return static_cast<DelegateHandle*>(state);
  }
  Error execute(BackendExecutionContext&, DelegateHandle* handle,
                Span<EValue*> args) const override {
    ++executions;
    *args[0] = EValue(int64_t(++*static_cast<int*>(handle)));
    return Error::Ok;
  }
  void destroy(DelegateHandle*) const override { ++destroyed; }
};

RecordingBackend& recording_backend() {
  static RecordingBackend backend;
  static const bool registered =
      register_backend("EmberTestBackend", &backend) == Error::Ok;
  EXPECT_TRUE(registered);
  return backend;
}

TEST(Backends, InitExecuteDestroyWithBlobAndCompileSpecs) {
  RecordingBackend& backend = recording_backend();
  Spec spec;
  spec.values = {int_value(0)};
  spec.outputs = {0};
  spec.delegate_ids = {"EmberTestBackend"};
  spec.compile_specs = {{"threads", "4"}, {"mode", "fast"}};
  spec.instructions = {delegate_call(0, {0})};
  {
    Loaded l(build(spec), Program::Verification::InternalConsistency);
    ASSERT_EQ(l.method_error, Error::Ok) << last_error_message();
    EXPECT_EQ(backend.blob, "blob-bytes");
    ASSERT_EQ(backend.specs.size(), 2u);
    EXPECT_EQ(backend.specs[0], std::make_pair(std::string("threads"), std::string("4")));
    // init sees the DelegateCall's values (the same EValue execute gets).
    ASSERT_EQ(backend.init_call_args.size(), 1u);
    EXPECT_TRUE(backend.init_call_args[0]->is_int());
    ASSERT_EQ(l.method->execute(), Error::Ok);
    EXPECT_EQ(backend.init_call_args[0]->to_int(), 42);
    EXPECT_EQ(l.method->get_output(0).to_int(), 42);
    EXPECT_EQ(backend.destroyed, 0);
    EXPECT_TRUE(l.method->method_meta().uses_backend("EmberTestBackend"));
  }
  EXPECT_EQ(backend.destroyed, 1);
}

TEST(Backends, InitFailureNamesTheDelegate) {
  RecordingBackend& backend = recording_backend();
  backend.fail_init = true;
  Spec spec;
  spec.values = {int_value(0)};
  spec.delegate_ids = {"EmberTestBackend"};
  Loaded l(build(spec));
  backend.fail_init = false;
  EXPECT_EQ(l.method_error, Error::DelegateInvalidCompatibility);
  EXPECT_NE(std::string(last_error_message())
                .find("delegate 0 ('EmberTestBackend') failed to initialize: blob "
                      "rejected by test"),
            std::string::npos)
      << last_error_message();
}

TEST(Backends, UnregisteredBackendIsNamed) {
  Spec spec;
  spec.values = {int_value(0)};
  spec.delegate_ids = {"NoSuchBackend"};
  spec.operators = {{"aten::nope", "out"}};
  Loaded l(build(spec));
  EXPECT_NE(l.method_error, Error::Ok);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("backend(s) not registered: 'NoSuchBackend'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("aten::nope.out"), std::string::npos) << message;
}

TEST(Backends, AMissingBackendIsNamedOnceForEveryCall) {
  Spec spec;
  spec.values = {int_value(0)};
  spec.delegate_ids = {"NoSuchBackend", "OtherMissing", "NoSuchBackend"};
  Loaded l(build(spec));
  EXPECT_NE(l.method_error, Error::Ok);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("3 delegate call(s) need backend(s) not registered: "
                         "'NoSuchBackend', 'OtherMissing'"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("'NoSuchBackend'"), message.rfind("'NoSuchBackend'")) << message;
}

TEST(Memory, MethodAllocatorExhaustionIsReported) {
  Spec spec;
  for (int i = 0; i < 100; ++i) spec.values.push_back(int_value(i));
  std::vector<uint8_t> bytes = build(spec);
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  std::vector<uint8_t> pool(256);
  MemoryAllocator allocator(pool.data(), pool.size());
  MemoryManager memory(&allocator);
  Result<Method> method = program->load_method("forward", &memory);
  EXPECT_EQ(method.error(), Error::MemoryAllocationFailed);
  EXPECT_NE(std::string(last_error_message()).find("method allocator exhausted"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::testing
