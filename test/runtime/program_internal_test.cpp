// ProgramInternals' read-only method views (MethodTables) and
// constant_bytes(): on committed fixtures, checked against MethodMeta and
// the exporter's ops.txt, and on programs built here (every instruction
// kind, a raw name, a bad index caught at Minimal verification).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"
#include "test/runtime/fixture_util.h"

namespace ember::testing {
namespace {

namespace fb = ember_fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using MethodTables = ProgramInternals::MethodTables;
using Kind = MethodTables::InstructionKind;

std::string str(Span<const char> s) { return std::string(s.data(), s.size()); }

std::string key(const MethodTables::Operator& op) {
  return op.overload.empty() ? str(op.name) : str(op.name) + "." + str(op.overload);
}

// A program file and its Program, loaded at `level`.
struct Loaded {
  explicit Loaded(std::vector<uint8_t> bytes,
                  Program::Verification level = Program::Verification::InternalConsistency)
      : data(std::move(bytes)), loader(data.data(), data.size()),
        program(Program::load(&loader, level)) {}
  std::vector<uint8_t> data;
  BufferDataLoader loader;
  Result<Program> program;
};

// "method_op <method> <name.overload>" lines of a fixture's ops.txt.
std::set<std::string> ops_txt_operators(const std::string& dir, const std::string& method) {
  std::ifstream in(models_dir() + "/" + dir + "/ops.txt");
  std::set<std::string> ops;
  std::string word, m, op;
  while (in >> word) {
    if (word == "method_op" && in >> m >> op && m == method) ops.insert(op);
    in.ignore(1 << 20, '\n');
  }
  return ops;
}

TEST(MethodTables, OperatorsAndInstructionsMatchTheFixture) {
  Loaded l(read_file_bytes(fixture_path("two_methods")));
  ASSERT_TRUE(l.program.ok());
  const Program& program = *l.program;
  ASSERT_EQ(program.num_methods(), 2u);
  for (size_t m = 0; m < program.num_methods(); ++m) {
    const char* name = *program.get_method_name(m);
    Result<MethodTables> t = ProgramInternals(program).method_tables(m);
    ASSERT_TRUE(t.ok()) << name;
    std::set<std::string> ops;
    for (size_t i = 0; i < t->num_operators(); ++i) ops.insert(key(*t->op(i)));
    const std::set<std::string> expected = ops_txt_operators("two_methods", name);
    ASSERT_FALSE(expected.empty()) << name;
    EXPECT_EQ(ops, expected) << name;
    size_t instructions = 0;
    for (size_t c = 0; c < t->num_chains(); ++c) {
      for (size_t pc = 0; pc < t->num_instructions(c); ++pc, ++instructions) {
        Result<MethodTables::Instruction> ins = t->instruction(c, pc);
        ASSERT_TRUE(ins.ok());
        if (ins->kind == Kind::Kernel) {
          EXPECT_LT(ins->index, t->num_operators());
        }
      }
    }
    EXPECT_EQ(instructions, program.method_meta(name)->num_instructions()) << name;
  }
  // ops.txt: "segment_data_size=24", the constant segment.
  EXPECT_EQ(ProgramInternals(program).constant_bytes(), 24u);
}

TEST(MethodTables, DelegatesMatchMethodMeta) {
  Loaded l(read_file_bytes(models_dir() + "/xnnpack/programs/unplanned_io.pte"));
  ASSERT_TRUE(l.program.ok());
  Result<MethodTables> t = ProgramInternals(*l.program).method_tables(0);
  ASSERT_TRUE(t.ok());
  const MethodMeta meta = *l.program->method_meta(*l.program->get_method_name(0));
  ASSERT_EQ(t->num_delegates(), meta.num_backends());
  ASSERT_GT(t->num_delegates(), 0u);
  for (size_t d = 0; d < t->num_delegates(); ++d) {
    EXPECT_EQ(str(t->delegate(d)->id), *meta.get_backend_name(d));
    Result<FreeableBuffer> blob = t->load_delegate_data(d);
    ASSERT_TRUE(blob.ok());
    EXPECT_GT(blob->size(), 0u);
  }
  size_t delegate_calls = 0;
  for (size_t pc = 0; pc < t->num_instructions(0); ++pc) {
    Result<MethodTables::Instruction> ins = t->instruction(0, pc);
    ASSERT_TRUE(ins.ok());
    if (ins->kind != Kind::Delegate) continue;
    EXPECT_LT(ins->index, t->num_delegates());
    ++delegate_calls;
  }
  EXPECT_GT(delegate_calls, 0u);
}

// One method "forward": values Int, Bool; operators add.out and a raw
// name; two delegates sharing inline blob 0; one of each call kind but
// FreeCall (which needs a tensor value).
std::vector<uint8_t> build_program(int32_t kernel_op_index) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::EValue>> values = {
      fb::CreateEValue(b, fb::KernelTypes::Int, fb::CreateInt(b, 0).Union()),
      fb::CreateEValue(b, fb::KernelTypes::Bool, fb::CreateBool(b, false).Union())};
  std::vector<Offset<fb::Operator>> ops = {
      fb::CreateOperator(b, b.CreateString("aten::add"), b.CreateString("out")),
      fb::CreateOperator(b, b.CreateString(std::string("my\x01op", 5)), 0)};
  const std::vector<int32_t> args = {0};
  std::vector<Offset<fb::Instruction>> instructions = {
      fb::CreateInstruction(
          b, fb::InstructionArguments::KernelCall,
          fb::CreateKernelCall(b, kernel_op_index, b.CreateVector(args)).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::DelegateCall,
                            fb::CreateDelegateCall(b, 1, b.CreateVector(args)).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::MoveCall,
                            fb::CreateMoveCall(b, 0, 0).Union()),
      fb::CreateInstruction(b, fb::InstructionArguments::JumpFalseCall,
                            fb::CreateJumpFalseCall(b, 1, 4).Union())};
  const std::vector<int32_t> none;
  auto chain = fb::CreateChain(b, b.CreateVector(none), b.CreateVector(none),
                               b.CreateVector(instructions));
  std::vector<Offset<fb::BackendDelegate>> delegates;
  for (const char* id : {"DemoA", "DemoB"}) {
    delegates.push_back(fb::CreateBackendDelegate(
        b, b.CreateString(id),
        fb::CreateBackendDelegateDataReference(b, fb::DataLocation::INLINE, 0)));
  }
  auto plan = fb::CreateExecutionPlan(
      b, b.CreateString("forward"), 0, b.CreateVector(values), b.CreateVector(none),
      b.CreateVector(none), b.CreateVector(std::vector<Offset<fb::Chain>>{chain}),
      b.CreateVector(ops), b.CreateVector(delegates), b.CreateVector(std::vector<int64_t>{0}));
  const std::string blob_bytes = "blob-bytes";
  auto blob = fb::CreateBackendDelegateInlineData(
      b, b.CreateVector(reinterpret_cast<const uint8_t*>(blob_bytes.data()), blob_bytes.size()));
  auto program = fb::CreateProgram(
      b, 0, b.CreateVector(std::vector<Offset<fb::ExecutionPlan>>{plan}), 0,
      b.CreateVector(std::vector<Offset<fb::BackendDelegateInlineData>>{blob}));
  fb::FinishProgramBuffer(b, program);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

TEST(MethodTables, BuiltProgramEveryViewAtBothLevels) {
  for (Program::Verification level :
       {Program::Verification::Minimal, Program::Verification::InternalConsistency}) {
    Loaded l(build_program(1), level);
    ASSERT_TRUE(l.program.ok()) << last_error_message();
    Result<MethodTables> t = ProgramInternals(*l.program).method_tables(0);
    ASSERT_TRUE(t.ok()) << last_error_message();
    ASSERT_EQ(t->num_operators(), 2u);
    EXPECT_EQ(key(*t->op(0)), "aten::add.out");
    // The file's bytes, unescaped; no overload.
    EXPECT_EQ(str(t->op(1)->name), std::string("my\x01op", 5));
    EXPECT_TRUE(t->op(1)->overload.empty());
    ASSERT_EQ(t->num_chains(), 1u);
    ASSERT_EQ(t->num_instructions(0), 4u);
    const Kind kinds[] = {Kind::Kernel, Kind::Delegate, Kind::Move, Kind::JumpFalse};
    const uint32_t indices[] = {1, 1, 0, 0};
    for (size_t pc = 0; pc < 4; ++pc) {
      EXPECT_EQ(t->instruction(0, pc)->kind, kinds[pc]) << pc;
      EXPECT_EQ(t->instruction(0, pc)->index, indices[pc]) << pc;
    }
    ASSERT_EQ(t->num_delegates(), 2u);
    for (size_t d = 0; d < 2; ++d) {
      EXPECT_EQ(str(t->delegate(d)->id), d == 0 ? "DemoA" : "DemoB");
      EXPECT_TRUE(t->delegate(d)->inline_data);
      EXPECT_EQ(t->delegate(d)->data_index, 0u);
      Result<FreeableBuffer> blob = t->load_delegate_data(d);
      ASSERT_TRUE(blob.ok());
      EXPECT_EQ(std::string(static_cast<const char*>(blob->data()), blob->size()), "blob-bytes");
    }
    EXPECT_EQ(ProgramInternals(*l.program).constant_bytes(), 0u);
  }
}

TEST(MethodTables, IndicesOutOfRangeAreInvalidArgument) {
  Loaded l(build_program(1));
  ASSERT_TRUE(l.program.ok());
  const ProgramInternals in(*l.program);
  EXPECT_EQ(in.method_tables(1).error(), Error::InvalidArgument);
  Result<MethodTables> t = in.method_tables(0);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->op(2).error(), Error::InvalidArgument);
  EXPECT_EQ(t->num_instructions(1), 0u);
  EXPECT_EQ(t->instruction(0, 4).error(), Error::InvalidArgument);
  EXPECT_EQ(t->instruction(1, 0).error(), Error::InvalidArgument);
  EXPECT_EQ(t->delegate(2).error(), Error::InvalidArgument);
  EXPECT_EQ(t->load_delegate_data(2).error(), Error::InvalidArgument);
}

// A bad operator index passes Minimal loading; the views validate the
// method before handing it out, as load_method() does.
TEST(MethodTables, UnvalidatedMethodIsValidatedFirst) {
  Loaded minimal(build_program(5), Program::Verification::Minimal);
  ASSERT_TRUE(minimal.program.ok());
  Result<MethodTables> t = ProgramInternals(*minimal.program).method_tables(0);
  EXPECT_EQ(t.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("operator index 5 out of range"),
            std::string::npos)
      << last_error_message();
  Loaded full(build_program(5), Program::Verification::InternalConsistency);
  EXPECT_EQ(full.program.error(), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
