// A Method with an EventRecorder attached: the events it reports on a
// committed fixture (test/models/mlp, portable kernels), checked against
// the program's own instruction list, and the ETDump written from them.
//
// With EMBER_ETDUMP_TEST_OUT=<dir> set, RepeatedRunsLogIdenticalValues writes
// <dir>/mlp.etdp and <dir>/mlp.debug_buffer, for checking by hand with
// upstream's reader (executorch.devtools.etdump.serialize).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "devtools/etdump/etdump_schema_generated.h"
#include "devtools/etdump/etdump_writer.h"
#include "devtools/event_recorder.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"
#include "test/runtime/fixture_util.h"
#include "test/runtime/raw_method.h"

namespace ember::testing {
namespace {

using devtools::EventRecorder;
using devtools::RecordedEvent;
using devtools::RecordedEventKind;
using devtools::RecordedTensor;

const char kFixture[] = "mlp";

// Forwards every call to an EventRecorder and keeps, for each logged
// value, which EValue it was and a copy of its bytes at that moment.
class CheckingTracer final : public EventTracer {
 public:
  struct Logged {
    const EValue* value;
    std::vector<uint8_t> bytes;
  };

  explicit CheckingTracer(EventRecorder& inner) : inner_(inner) {}

  void create_event_block(const char* name) override {
    sync();
    inner_.create_event_block(name);
  }
  EventTracerEntry start_profiling(const char* name, int32_t chain_index,
                                   int32_t instruction_id) override {
    sync();
    return inner_.start_profiling(name, chain_index, instruction_id);
  }
  void end_profiling(const EventTracerEntry& entry) override {
    sync();
    inner_.end_profiling(entry);
  }
  EventTracerEntry start_profiling_delegate(const char* name, int32_t id) override {
    sync();
    return inner_.start_profiling_delegate(name, id);
  }
  void end_profiling_delegate(const EventTracerEntry& entry,
                              Span<const uint8_t> metadata) override {
    sync();
    inner_.end_profiling_delegate(entry, metadata);
  }
  void log_profiling_delegate(const char* name, int32_t id, uint64_t start, uint64_t end,
                              Span<const uint8_t> metadata) override {
    sync();
    inner_.log_profiling_delegate(name, id, start, end, metadata);
  }
  void log_value(const EValue& value, LoggedValueKind kind) override {
    sync();
    Logged l{&value, {}};
    if (value.is_tensor()) {
      const Tensor t = value.to_tensor();
      const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
      l.bytes.assign(p, p + t.nbytes());
    }
    logged.push_back(std::move(l));
    inner_.log_value(value, kind);
  }
  void log_delegate_output(const char* name, int32_t id, const Tensor& output) override {
    sync();
    inner_.log_delegate_output(name, id, output);
  }

  std::vector<Logged> logged;

 private:
  void sync() {
    inner_.set_chain_instruction(chain_index(), instruction_id());
    inner_.set_bundled_input_index(bundled_input_index());
    inner_.set_debug_level(debug_level());
  }
  EventRecorder& inner_;
};

struct Buffers {
  std::vector<uint8_t> events = std::vector<uint8_t>(size_t(1) << 20);
  std::vector<uint8_t> debug = std::vector<uint8_t>(size_t(1) << 20);
  EventRecorder recorder{{events.data(), events.size()}, {debug.data(), debug.size()}};
};

const ember_fb::ExecutionPlan* plan_of(const Program& program, const char* name) {
  const auto* plans = ProgramInternals(program).flatbuffer()->execution_plan();
  for (size_t i = 0; i < plans->size(); ++i) {
    if (std::strcmp(plans->Get(i)->name()->c_str(), name) == 0) return plans->Get(i);
  }
  return nullptr;
}

// "native_call_addmm.out" for aten::addmm.out.
std::string native_call_name(const ember_fb::Operator* op) {
  std::string name = op->name()->str();
  if (name.rfind("aten::", 0) == 0) name = name.substr(6);
  if (op->overload() != nullptr && op->overload()->size() > 0) {
    name += "." + op->overload()->str();
  }
  return "native_call_" + name;
}

const char* instruction_event_name(ember_fb::InstructionArguments kind) {
  switch (kind) {
    case ember_fb::InstructionArguments::KernelCall: return "OPERATOR_CALL";
    case ember_fb::InstructionArguments::DelegateCall: return "DELEGATE_CALL";
    case ember_fb::InstructionArguments::MoveCall: return "MOVE_CALL";
    case ember_fb::InstructionArguments::JumpFalseCall: return "JF_CALL";
    case ember_fb::InstructionArguments::FreeCall: return "FREE_CALL";
    default: return "?";
  }
}

bool same_bytes(const EventRecorder& r, const RecordedTensor& t,
                const std::vector<uint8_t>& want) {
  if (t.nbytes != want.size()) return false;
  if (want.empty()) return t.offset == -1;
  if (t.offset < 0 || t.offset % 64 != 0) return false;
  return std::memcmp(r.debug_buffer().data() + t.offset, want.data(), want.size()) == 0;
}

void set_run_inputs(Method& m, NpyTensors& held, const std::string& dir) {
  for (size_t i = 0; i < m.inputs_size(); ++i) {
    Result<NpyArray> a = read_npy(dir + "/input" + std::to_string(i) + ".npy");
    ASSERT_TRUE(a.ok()) << last_error_message();
    ASSERT_EQ(m.set_input(EValue(held.add(*a)), i), Error::Ok) << last_error_message();
  }
}

std::vector<uint8_t> output_bytes(const Method& m, size_t i) {
  const Tensor t = m.get_output(i).to_tensor();
  const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
  return std::vector<uint8_t>(p, p + t.nbytes());
}

void write_file(const std::string& path, const void* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  EXPECT_EQ(std::fwrite(data, 1, size, f), size);
  std::fclose(f);
}

TEST(MethodTrace, EventsFollowTheProgramAndKernelOutputsAreTheMethodsValues) {
  Buffers b;
  CheckingTracer tracer(b.recorder);
  tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  std::unique_ptr<Raw> raw = load_raw_file(fixture_path(kFixture), "forward", &tracer);
  ASSERT_NE(raw, nullptr) << last_error_message();
  Method& m = *raw->method;
  const ember_fb::ExecutionPlan* plan = plan_of(*raw->program, "forward");
  ASSERT_NE(plan, nullptr);
  ASSERT_EQ(plan->chains()->size(), 1u);
  const auto* instructions = plan->chains()->Get(0)->instructions();

  const std::vector<std::string> runs = run_dirs(kFixture, "forward");
  ASSERT_EQ(runs.size(), 2u);
  std::vector<NpyTensors> held(runs.size());
  for (size_t k = 0; k < runs.size(); ++k) {
    set_run_inputs(m, held[k], runs[k]);
    ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
    Result<NpyArray> expected = read_npy(runs[k] + "/output0.npy");
    ASSERT_TRUE(expected.ok());
    EXPECT_TRUE(output_matches(m.get_output(0), *expected));
  }

  const EventRecorder& r = b.recorder;
  EXPECT_EQ(r.dropped_events(), 0u);
  EXPECT_EQ(r.dropped_tensors(), 0u);
  ASSERT_EQ(r.num_blocks(), 3u);
  EXPECT_STREQ(r.block(0).name, "Default");
  EXPECT_STREQ(r.block(1).name, "Execute");
  EXPECT_STREQ(r.block(2).name, "Execute");
  // The load: Method::init nested in (so recorded before) Program::load_method.
  ASSERT_EQ(r.block(1).first_event, 2u);
  EXPECT_STREQ(r.event(0).name, "Method::init");
  EXPECT_STREQ(r.event(1).name, "Program::load_method");
  EXPECT_LE(r.event(1).start_ticks, r.event(0).start_ticks);
  EXPECT_GE(r.event(1).end_ticks, r.event(0).end_ticks);

  size_t logged = 0;  // index into tracer.logged
  for (size_t blk = 1; blk <= 2; ++blk) {
    SCOPED_TRACE("block " + std::to_string(blk));
    EXPECT_EQ(r.block(blk).bundled_input_index, -1);
    size_t e = r.block(blk).first_event;
    const size_t end = blk + 1 < r.num_blocks() ? r.block(blk + 1).first_event : r.num_events();
    for (size_t pc = 0; pc < instructions->size(); ++pc) {
      SCOPED_TRACE("instruction " + std::to_string(pc));
      const auto* ins = instructions->Get(pc);
      const bool kernel = ins->instr_args_type() == ember_fb::InstructionArguments::KernelCall;
      if (kernel) {
        const auto* call = ins->instr_args_as_KernelCall();
        const RecordedEvent native = r.event(e++);
        EXPECT_EQ(native.kind, RecordedEventKind::Profile);
        EXPECT_EQ(native.name,
                  native_call_name(plan->operators()->Get(call->op_index())));
        EXPECT_EQ(native.chain_index, 0);
        EXPECT_EQ(native.instruction_id, int32_t(pc));
        // Every fixture kernel is an out variant with one out tensor.
        const RecordedEvent out = r.event(e);
        ASSERT_EQ(out.kind, RecordedEventKind::Debug);
        EXPECT_EQ(out.chain_index, 0);
        EXPECT_EQ(out.instruction_id, int32_t(pc));
        EXPECT_EQ(out.value.tag, Tag::Tensor);
        EXPECT_FALSE(out.value.is_program_output);
        const int32_t out_index = call->args()->Get(call->args()->size() - 1);
        ASSERT_LT(logged, tracer.logged.size());
        EXPECT_EQ(tracer.logged[logged].value, &m.value(size_t(out_index)));
        const Tensor held_value = m.value(size_t(out_index)).to_tensor();
        const RecordedTensor rt = r.tensor(e, 0);
        EXPECT_EQ(rt.dtype, held_value.scalar_type());
        ASSERT_EQ(rt.sizes.size(), held_value.dim());
        for (size_t d = 0; d < held_value.dim(); ++d) {
          EXPECT_EQ(rt.sizes[d], held_value.sizes()[d]);
          EXPECT_EQ(rt.strides[d], held_value.strides()[d]);  // contiguous here
        }
        EXPECT_TRUE(same_bytes(r, rt, tracer.logged[logged].bytes));
        ++logged;
        ++e;
      }
      const RecordedEvent outer = r.event(e++);
      EXPECT_EQ(outer.kind, RecordedEventKind::Profile);
      EXPECT_STREQ(outer.name, instruction_event_name(ins->instr_args_type()));
      EXPECT_EQ(outer.chain_index, 0);
      EXPECT_EQ(outer.instruction_id, int32_t(pc));
    }
    for (size_t i = 0; i < m.outputs_size(); ++i) {
      const RecordedEvent out = r.event(e);
      ASSERT_EQ(out.kind, RecordedEventKind::Debug);
      EXPECT_TRUE(out.value.is_program_output);
      EXPECT_EQ(out.instruction_id, kUnsetInstructionId);
      EXPECT_TRUE(same_bytes(r, r.tensor(e, 0), tracer.logged[logged].bytes));
      if (blk == 2) {
        EXPECT_TRUE(same_bytes(r, r.tensor(e, 0), output_bytes(m, i)));
      }
      ++logged;
      ++e;
    }
    const RecordedEvent whole = r.event(e++);
    EXPECT_STREQ(whole.name, "Method::execute");
    EXPECT_EQ(whole.chain_index, kUnsetChainIndex);
    EXPECT_EQ(e, end);
  }
  EXPECT_EQ(logged, tracer.logged.size());

  // The ETDump of the same events parses and has them all.
  Result<std::vector<uint8_t>> etdump = devtools::write_etdump(r);
  ASSERT_TRUE(etdump.ok()) << last_error_message();
  flatbuffers::Verifier verifier(etdump->data(), etdump->size());
  ASSERT_TRUE(ember_etdump::VerifySizePrefixedETDumpBuffer(verifier));
  const auto* dump = ember_etdump::GetSizePrefixedETDump(etdump->data());
  ASSERT_EQ(dump->run_data()->size(), 3u);
  size_t total = 0;
  for (const auto* run : *dump->run_data()) total += run->events()->size();
  EXPECT_EQ(total, r.num_events());
}

// Upstream's Inspector requires every run of a dump to log identical
// values; two runs on the same input do, byte for byte.
TEST(MethodTrace, RepeatedRunsLogIdenticalValues) {
  Buffers b;
  b.recorder.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  std::unique_ptr<Raw> raw = load_raw_file(fixture_path(kFixture), "forward", &b.recorder);
  ASSERT_NE(raw, nullptr);
  NpyTensors held;
  set_run_inputs(*raw->method, held, run_dirs(kFixture, "forward").at(0));
  ASSERT_EQ(raw->method->execute(), Error::Ok);
  ASSERT_EQ(raw->method->execute(), Error::Ok);
  const EventRecorder& r = b.recorder;
  ASSERT_EQ(r.num_blocks(), 3u);
  const size_t first = r.block(1).first_event;
  const size_t second = r.block(2).first_event;
  ASSERT_EQ(r.num_events() - second, second - first);
  for (size_t i = 0; i < second - first; ++i) {
    const RecordedEvent a = r.event(first + i);
    const RecordedEvent c = r.event(second + i);
    ASSERT_EQ(a.kind, c.kind) << i;
    if (a.kind == RecordedEventKind::Profile) {
      EXPECT_STREQ(a.name, c.name);
      continue;
    }
    const RecordedTensor ta = r.tensor(first + i, 0);
    const RecordedTensor tc = r.tensor(second + i, 0);
    ASSERT_EQ(ta.nbytes, tc.nbytes);
    EXPECT_EQ(std::memcmp(r.debug_buffer().data() + ta.offset,
                          r.debug_buffer().data() + tc.offset, ta.nbytes), 0) << i;
  }
  if (const char* dir = std::getenv("EMBER_ETDUMP_TEST_OUT")) {
    Result<std::vector<uint8_t>> etdump = devtools::write_etdump(r);
    ASSERT_TRUE(etdump.ok()) << last_error_message();
    write_file(std::string(dir) + "/mlp.etdp", etdump->data(), etdump->size());
    write_file(std::string(dir) + "/mlp.debug_buffer", r.debug_buffer().data(),
               r.debug_buffer().size());
  }
}

// A program with control flow (test/models/cond: jumps and moves): every
// instruction event names its instruction's kind, kernels their operator,
// and the instruction ids follow the program's own flow.
TEST(MethodTrace, ControlFlowEventsFollowTheJumps) {
  Buffers b;
  b.recorder.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  std::unique_ptr<Raw> raw = load_raw_file(fixture_path("cond"), "forward", &b.recorder);
  ASSERT_NE(raw, nullptr) << last_error_message();
  const ember_fb::ExecutionPlan* plan = plan_of(*raw->program, "forward");
  ASSERT_NE(plan, nullptr);
  const auto* instructions = plan->chains()->Get(0)->instructions();
  bool program_has_jump = false;
  for (const auto* ins : *instructions) {
    program_has_jump |= ins->instr_args_type() == ember_fb::InstructionArguments::JumpFalseCall;
  }
  EXPECT_TRUE(program_has_jump);
  const std::vector<std::string> runs = run_dirs("cond", "forward");
  ASSERT_FALSE(runs.empty());
  std::vector<NpyTensors> held(runs.size());
  for (size_t k = 0; k < runs.size(); ++k) {
    set_run_inputs(*raw->method, held[k], runs[k]);
    ASSERT_EQ(raw->method->execute(), Error::Ok) << last_error_message();
    Result<NpyArray> expected = read_npy(runs[k] + "/output0.npy");
    ASSERT_TRUE(expected.ok());
    EXPECT_TRUE(output_matches(raw->method->get_output(0), *expected));
  }
  const EventRecorder& r = b.recorder;
  ASSERT_EQ(r.num_blocks(), 1 + runs.size());
  size_t jumps_seen = 0;
  for (size_t blk = 1; blk < r.num_blocks(); ++blk) {
    SCOPED_TRACE("block " + std::to_string(blk));
    const size_t end = blk + 1 < r.num_blocks() ? r.block(blk + 1).first_event : r.num_events();
    std::vector<int32_t> ran;  // instruction ids of the instruction events, in order
    for (size_t e = r.block(blk).first_event; e < end; ++e) {
      const RecordedEvent ev = r.event(e);
      if (ev.kind != RecordedEventKind::Profile || ev.instruction_id < 0) continue;
      ASSERT_LT(size_t(ev.instruction_id), instructions->size());
      const auto* ins = instructions->Get(size_t(ev.instruction_id));
      const std::string name = ev.name;
      if (name.rfind("native_call_", 0) == 0) {
        const auto* call = ins->instr_args_as_KernelCall();
        ASSERT_NE(call, nullptr) << name;
        EXPECT_EQ(name, native_call_name(plan->operators()->Get(call->op_index())));
      } else {
        EXPECT_EQ(name, instruction_event_name(ins->instr_args_type()));
        ran.push_back(ev.instruction_id);
      }
    }
    ASSERT_FALSE(ran.empty());
    EXPECT_EQ(ran.front(), 0);
    for (size_t i = 0; i + 1 < ran.size(); ++i) {
      const auto* jf = instructions->Get(size_t(ran[i]))->instr_args_as_JumpFalseCall();
      if (jf != nullptr) {
        ++jumps_seen;
        EXPECT_TRUE(ran[i + 1] == ran[i] + 1 || ran[i + 1] == jf->destination_instruction())
            << "after the jump at " << ran[i] << " came " << ran[i + 1];
      } else {
        EXPECT_EQ(ran[i + 1], ran[i] + 1) << "after " << ran[i];
      }
    }
  }
  EXPECT_GT(jumps_seen, 0u);
}

TEST(MethodTrace, WithoutATracerNothingIsRecordedAndResultsAreTheSame) {
  Buffers b;
  b.recorder.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  std::unique_ptr<Raw> traced = load_raw_file(fixture_path(kFixture), "forward", &b.recorder);
  std::unique_ptr<Raw> plain = load_raw_file(fixture_path(kFixture), "forward");
  ASSERT_NE(traced, nullptr);
  ASSERT_NE(plain, nullptr);
  const std::string run = run_dirs(kFixture, "forward").at(0);
  NpyTensors held;
  set_run_inputs(*traced->method, held, run);
  set_run_inputs(*plain->method, held, run);
  ASSERT_EQ(traced->method->execute(), Error::Ok);
  const std::vector<uint8_t> with_tracer = output_bytes(*traced->method, 0);
  const size_t events = b.recorder.num_events();
  ASSERT_GT(events, 0u);

  traced->method->set_event_tracer(nullptr);
  ASSERT_EQ(traced->method->execute(), Error::Ok);
  EXPECT_EQ(b.recorder.num_events(), events);
  EXPECT_EQ(b.recorder.num_blocks(), 2u);
  EXPECT_EQ(output_bytes(*traced->method, 0), with_tracer);

  ASSERT_EQ(plain->method->execute(), Error::Ok);
  EXPECT_EQ(output_bytes(*plain->method, 0), with_tracer);
}

TEST(MethodTrace, ProgramOutputsLevelLogsOnlyTheOutputs) {
  Buffers b;
  b.recorder.set_debug_level(EventTracerDebugLevel::ProgramOutputs);
  b.recorder.set_profile_instructions(false);
  std::unique_ptr<Raw> raw = load_raw_file(fixture_path(kFixture), "forward", &b.recorder);
  ASSERT_NE(raw, nullptr);
  NpyTensors held;
  set_run_inputs(*raw->method, held, run_dirs(kFixture, "forward").at(0));
  ASSERT_EQ(raw->method->execute(), Error::Ok);
  const EventRecorder& r = b.recorder;
  ASSERT_EQ(r.num_blocks(), 2u);
  const size_t first = r.block(1).first_event;
  ASSERT_EQ(r.num_events() - first, 2u);  // the output, then Method::execute
  EXPECT_TRUE(r.event(first).value.is_program_output);
  EXPECT_TRUE(same_bytes(r, r.tensor(first, 0), output_bytes(*raw->method, 0)));
  EXPECT_STREQ(r.event(first + 1).name, "Method::execute");
}

TEST(MethodTrace, BundledInputIndexIsRecordedOnTheExecuteBlock) {
  const std::vector<uint8_t> bpte = read_file_bytes(models_dir() + "/bundled/mlp.bpte");
  ASSERT_FALSE(bpte.empty());
  Result<ProgramView> view = ProgramView::open(bpte.data(), bpte.size());
  ASSERT_TRUE(view.ok()) << last_error_message();
  ASSERT_TRUE(view->is_bundled());
  const uint8_t* p = static_cast<const uint8_t*>(view->program_data());
  Buffers b;
  std::unique_ptr<Raw> raw =
      load_raw(std::vector<uint8_t>(p, p + view->program_size()), "forward", &b.recorder);
  ASSERT_NE(raw, nullptr) << last_error_message();
  ASSERT_EQ(load_bundled_input(*raw->method, bpte.data(), bpte.size(), 1), Error::Ok)
      << last_error_message();
  ASSERT_EQ(raw->method->execute(), Error::Ok);
  ASSERT_EQ(b.recorder.num_blocks(), 2u);
  EXPECT_EQ(b.recorder.block(0).bundled_input_index, -1);
  EXPECT_EQ(b.recorder.block(1).bundled_input_index, 1);

  Result<std::vector<uint8_t>> etdump = devtools::write_etdump(b.recorder);
  ASSERT_TRUE(etdump.ok());
  const auto* dump = ember_etdump::GetSizePrefixedETDump(etdump->data());
  EXPECT_EQ(dump->run_data()->Get(1)->bundled_input_index(), 1);
}

// A kernel returning several tensors (max_pool2d_with_indices.out: values
// and indices) has them as a tensor list after its out arguments; each is
// logged as a tensor of its own, as upstream's generated wrappers log every
// return, not as one list.
TEST(MethodTrace, SeveralReturnsAreLoggedOneByOne) {
  Buffers b;
  CheckingTracer tracer(b.recorder);
  tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  std::unique_ptr<Raw> raw = load_raw_file(fixture_path("convnet"), "forward", &tracer);
  ASSERT_NE(raw, nullptr) << last_error_message();
  Method& m = *raw->method;
  const ember_fb::ExecutionPlan* plan = plan_of(*raw->program, "forward");
  ASSERT_NE(plan, nullptr);
  const auto* instructions = plan->chains()->Get(0)->instructions();
  NpyTensors held;
  set_run_inputs(m, held, run_dirs("convnet", "forward")[0]);
  ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();

  bool saw_pool = false;
  const EventRecorder& r = b.recorder;
  for (size_t pc = 0; pc < instructions->size(); ++pc) {
    const auto* call = instructions->Get(pc)->instr_args_as_KernelCall();
    ASSERT_NE(call, nullptr);
    const std::string op = plan->operators()->Get(call->op_index())->name()->str();
    // The values logged for this instruction, in order.
    std::vector<size_t> debug;
    for (size_t e = 0; e < r.num_events(); ++e) {
      const RecordedEvent ev = r.event(e);
      if (ev.kind == RecordedEventKind::Debug && ev.instruction_id == int32_t(pc)) {
        debug.push_back(e);
      }
    }
    const size_t n = call->args()->size();
    if (op != "aten::max_pool2d_with_indices") {
      ASSERT_EQ(debug.size(), 1u) << op;
      continue;
    }
    saw_pool = true;
    // Arguments: ..., out, indices, (out, indices) as a list.
    ASSERT_TRUE(m.value(size_t(call->args()->Get(n - 1))).is_tensor_list());
    ASSERT_EQ(debug.size(), 2u);
    for (size_t j = 0; j < 2; ++j) {
      const RecordedEvent ev = r.event(debug[j]);
      EXPECT_EQ(ev.value.tag, Tag::Tensor);
      const Tensor want = m.value(size_t(call->args()->Get(n - 3 + j))).to_tensor();
      EXPECT_EQ(r.tensor(debug[j], 0).dtype, want.scalar_type());
      EXPECT_EQ(r.tensor(debug[j], 0).nbytes, want.nbytes());
    }
  }
  EXPECT_TRUE(saw_pool);
}

}  // namespace
}  // namespace ember::testing
