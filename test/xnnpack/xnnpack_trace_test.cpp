// The XNNPACK delegate's events (backends/xnnpack/xnn_trace.h) on
// committed fixtures, with a tracer that keeps every event in vectors:
//  - each step of the plan is a delegate event named
//    "<kind> <step>: nodes <first>-<last>", carrying the DelegateCall's
//    chain and instruction and nested in time inside its DELEGATE_CALL;
//    the names are the ones the plan built from the same blob describes;
//  - per-operator events (tracer attached at load) are numbered across the
//    delegate, each inside one XNNPACK step, summing to no more than it;
//  - at IntermediateOutputs every step's outputs come as contiguous
//    tensors with the blob's shapes, and those that are the delegate's
//    outputs equal the values the method logs for the call;
//  - with a tracer the outputs are bit-identical to a run without one.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "backends/xnnpack/xnn_compiler.h"
#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_payload.h"
#include "backends/xnnpack/xnn_trace.h"
#include "runtime/core/error_message.h"
#include "runtime/core/event_tracer.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"
#include "test/xnnpack/xnnpack_trace_util.h"

namespace ember::testing {
namespace {

struct Event {
  std::string name;
  int32_t chain = kUnsetChainIndex;
  int32_t instruction = kUnsetInstructionId;
  int32_t debug_id = kUnsetDelegateDebugId;
  bool delegate = false;
  uint64_t start = 0;
  uint64_t end = 0;
};

struct Logged {
  std::string name;  // the step for a delegate output; empty for log_value
  int32_t instruction = kUnsetInstructionId;
  bool tensor = false;
  ScalarType type = ScalarType::Float;
  std::vector<int32_t> sizes;
  bool contiguous = false;
  std::vector<uint8_t> bytes;
};

// Keeps everything it is told, in order.
class RecordingTracer final : public EventTracer {
 public:
  std::vector<std::string> blocks;
  std::vector<Event> events;
  std::vector<Logged> values;          // log_value
  std::vector<Logged> delegate_outputs;  // log_delegate_output

  void create_event_block(const char* name) override { blocks.emplace_back(name); }

  EventTracerEntry start_profiling(const char* name, int32_t chain,
                                   int32_t instruction) override {
    return start(name, chain == kUnsetChainIndex ? chain_index() : chain,
                 instruction == kUnsetInstructionId ? instruction_id() : instruction,
                 kUnsetDelegateDebugId, false);
  }
  void end_profiling(const EventTracerEntry& entry) override { finish(entry); }

  EventTracerEntry start_profiling_delegate(const char* name, int32_t debug_id) override {
    return start(name, chain_index(), instruction_id(), debug_id, true);
  }
  void end_profiling_delegate(const EventTracerEntry& entry, Span<const uint8_t>) override {
    finish(entry);
  }
  void log_profiling_delegate(const char* name, int32_t debug_id, uint64_t start_ticks,
                              uint64_t end_ticks, Span<const uint8_t>) override {
    events.push_back(Event{name, chain_index(), instruction_id(), debug_id, true, start_ticks,
                           end_ticks});
  }

  void log_value(const EValue& value, LoggedValueKind) override {
    Logged l;
    l.instruction = instruction_id();
    if (value.is_tensor()) keep(value.to_tensor(), &l);
    values.push_back(std::move(l));
  }
  void log_delegate_output(const char* name, int32_t, const Tensor& output) override {
    Logged l;
    l.name = name;
    l.instruction = instruction_id();
    keep(output, &l);
    delegate_outputs.push_back(std::move(l));
  }

 private:
  EventTracerEntry start(const char* name, int32_t chain, int32_t instruction, int32_t debug_id,
                         bool delegate) {
    EventTracerEntry e;
    e.event_id = int64_t(events.size());
    e.chain_index = chain;
    e.instruction_id = instruction;
    e.delegate_debug_id = debug_id;
    e.is_delegate = delegate;
    e.start_ticks = event_tracer_ticks();
    events.push_back(Event{name, chain, instruction, debug_id, delegate, e.start_ticks, 0});
    return e;
  }
  void finish(const EventTracerEntry& e) { events[size_t(e.event_id)].end = event_tracer_ticks(); }
  static void keep(const Tensor& t, Logged* l) {
    l->tensor = true;
    l->type = t.scalar_type();
    l->sizes.assign(t.sizes().begin(), t.sizes().end());
    l->contiguous = t.is_contiguous();
    const auto* p = static_cast<const uint8_t*>(t.const_data_ptr());
    l->bytes.assign(p, p + t.nbytes());
  }
};

const ember_fb::ExecutionPlan* forward_plan(const Program& program) {
  for (const ember_fb::ExecutionPlan* p : *ProgramInternals(program).flatbuffer()->execution_plan()) {
    if (std::strcmp(p->name()->c_str(), "forward") == 0) return p;
  }
  return nullptr;
}

// One DelegateCall of the method, with the plan the delegate builds from
// the same blob (step names, outputs, declared shapes).
struct Call {
  int32_t chain = 0;
  int32_t instruction = 0;
  size_t num_inputs = 0;
  FreeableBuffer blob;
  std::unique_ptr<xnnpack::Plan> plan;
};

::testing::AssertionResult delegate_calls(const Program& program, std::vector<Call>* calls) {
  const ember_fb::ExecutionPlan* ep = forward_plan(program);
  if (ep == nullptr) return ::testing::AssertionFailure() << "no forward plan";
  for (uint32_t c = 0; c < ep->chains()->size(); ++c) {
    const auto* instructions = ep->chains()->Get(c)->instructions();
    for (uint32_t pc = 0; instructions != nullptr && pc < instructions->size(); ++pc) {
      const ember_fb::DelegateCall* dc = instructions->Get(pc)->instr_args_as_DelegateCall();
      if (dc == nullptr) continue;
      Call call;
      call.chain = int32_t(c);
      call.instruction = int32_t(pc);
      const ember_fb::BackendDelegate* d = ep->delegates()->Get(uint32_t(dc->delegate_index()));
      Result<FreeableBuffer> blob = ProgramInternals(program).load_delegate_data(d->processed());
      if (!blob.ok()) return ::testing::AssertionFailure() << last_error_message();
      call.blob = std::move(*blob);
      xnnpack::Payload payload;
      call.plan = std::make_unique<xnnpack::Plan>();
      if (xnnpack::parse_payload(call.blob.data(), call.blob.size(), &payload) != Error::Ok ||
          xnnpack::build_graph(payload, ProgramInternals(program).named_data(), &call.plan->graph) != Error::Ok) {
        return ::testing::AssertionFailure() << last_error_message();
      }
      for (const int32_t arg : *dc->args()) {
        const ember_fb::Tensor* t = ep->values()->Get(uint32_t(arg))->val_as_Tensor();
        if (t != nullptr && t->shape_dynamism() != ember_fb::TensorShapeDynamism::STATIC) {
          call.plan->dynamic_shapes = true;
        }
      }
      call.num_inputs = call.plan->graph.inputs.size();
      if (xnnpack::compile_plan(call.plan.get()) != Error::Ok) {
        return ::testing::AssertionFailure() << last_error_message();
      }
      xnnpack::describe_steps(call.plan.get());
      calls->push_back(std::move(call));
    }
  }
  return ::testing::AssertionSuccess();
}

const std::regex kStepName(R"(^(xnn_runtime|native:[a-z0-9_]+) (\d+): nodes (\d+)-(\d+)$)");
const std::regex kOperatorName(R"(^(.+) #(\d+)$)");

const Event* find_call_event(const std::vector<Event>& events, const Call& call) {
  for (const Event& e : events) {
    if (!e.delegate && e.name == "DELEGATE_CALL" && e.instruction == call.instruction &&
        e.chain == call.chain) {
      return &e;
    }
  }
  return nullptr;
}

bool inside(const Event& inner, const Event& outer) {
  return outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end;
}

class XnnpackTrace : public ::testing::TestWithParam<std::string> {};

// Step and operator events: names, keys, nesting, per-operator sums.
TEST_P(XnnpackTrace, StepsAndOperatorsNestInTheDelegateCall) {
  RecordingTracer tracer;
  Loaded l;
  ASSERT_TRUE(load(GetParam(), &tracer, &l));
  std::vector<Call> calls;
  ASSERT_TRUE(delegate_calls(*l.program, &calls));
  ASSERT_FALSE(calls.empty());
  tracer.events.clear();
  ASSERT_TRUE(run_case(&l, 0));
  for (const Call& call : calls) {
    SCOPED_TRACE("instruction " + std::to_string(call.instruction));
    const Event* outer = find_call_event(tracer.events, call);
    ASSERT_NE(outer, nullptr) << "no DELEGATE_CALL event";
    std::vector<const Event*> steps, operators;
    for (const Event& e : tracer.events) {
      if (!e.delegate || e.instruction != call.instruction) continue;
      EXPECT_EQ(e.chain, call.chain) << e.name;
      EXPECT_EQ(e.debug_id, kUnsetDelegateDebugId) << e.name;
      EXPECT_TRUE(inside(e, *outer)) << e.name << " is not inside its DELEGATE_CALL";
      (std::regex_match(e.name, kStepName) ? steps : operators).push_back(&e);
    }
    const std::vector<xnnpack::Step>& planned = call.plan->steps;
    ASSERT_EQ(steps.size(), planned.size());
    size_t next_node = 0, next_operator = 0, xnn_steps = 0;
    for (size_t s = 0; s < steps.size(); ++s) {
      const Event& step = *steps[s];
      EXPECT_EQ(step.name, planned[s].trace_name);
      std::smatch m;
      ASSERT_TRUE(std::regex_match(step.name, m, kStepName));
      EXPECT_EQ(std::stoul(m[2]), s);
      EXPECT_EQ(std::stoul(m[3]), next_node) << step.name;
      EXPECT_GE(std::stoul(m[4]), std::stoul(m[3])) << step.name;
      next_node = std::stoul(m[4]) + 1;
      if (s > 0) EXPECT_LE(steps[s - 1]->end, step.start);
      // Operators of this step: inside it in time, numbered on, summing
      // to no more than the step.
      uint64_t sum = 0;
      size_t count = 0;
      for (const Event* op : operators) {
        if (!inside(*op, step)) continue;
        std::smatch om;
        ASSERT_TRUE(std::regex_match(op->name, om, kOperatorName)) << op->name;
        EXPECT_EQ(std::stoul(om[2]), next_operator) << op->name;
        ++next_operator;
        ++count;
        sum += op->end - op->start;
      }
      EXPECT_LE(sum, step.end - step.start) << step.name;
      if (m[1] == "xnn_runtime") {
        ++xnn_steps;
        EXPECT_GT(count, 0u) << step.name << ": no per-operator events";
      } else {
        EXPECT_EQ(count, 0u) << step.name;
      }
    }
    EXPECT_EQ(next_node, call.plan->graph.nodes.size());
    EXPECT_EQ(next_operator, operators.size()) << "operator events outside every step";
    EXPECT_GT(xnn_steps, 0u);
  }
}

// One run's step outputs: each step's outputs, shaped as the blob
// declares them (a dynamic plan: as the call's outputs are), and the
// delegate's outputs equal to what the method logs for the call.
void check_step_outputs(const RecordingTracer& tracer, const std::vector<Call>& calls) {
  for (const Call& call : calls) {
    SCOPED_TRACE("instruction " + std::to_string(call.instruction));
    const xnnpack::Graph& g = call.plan->graph;
    // The method's log of the call's arguments: inputs, then outputs.
    std::vector<const Logged*> args;
    for (const Logged& v : tracer.values) {
      if (v.instruction == call.instruction) args.push_back(&v);
    }
    ASSERT_EQ(args.size(), g.inputs.size() + g.outputs.size());
    size_t graph_outputs_seen = 0;
    for (const xnnpack::Step& step : call.plan->steps) {
      std::vector<const Logged*> logged;
      for (const Logged& o : tracer.delegate_outputs) {
        if (o.instruction == call.instruction && o.name == step.trace_name) logged.push_back(&o);
      }
      ASSERT_EQ(logged.size(), step.outputs.size()) << step.trace_name;
      ASSERT_FALSE(logged.empty()) << step.trace_name;
      for (size_t k = 0; k < logged.size(); ++k) {
        const xnnpack::Value& value = g.values[step.outputs[k]];
        const Logged& o = *logged[k];
        EXPECT_TRUE(o.contiguous);
        ScalarType type = ScalarType::Float;
        ASSERT_EQ(xnnpack::scalar_type_of(value.dtype, &type), Error::Ok);
        EXPECT_EQ(o.type, type) << step.trace_name;
        if (!call.plan->dynamic_shapes) {
          EXPECT_EQ(o.bytes.size(), value.nbytes()) << step.trace_name;
          ASSERT_EQ(o.sizes.size(), value.num_dims) << step.trace_name;
          for (size_t d = 0; d < value.num_dims; ++d) {
            EXPECT_EQ(size_t(o.sizes[d]), value.dims[d]) << step.trace_name << " dim " << d;
          }
        }
        for (size_t i = 0; i < g.outputs.size(); ++i) {
          if (g.outputs[i] != step.outputs[k]) continue;
          ++graph_outputs_seen;
          const Logged& arg = *args[g.inputs.size() + i];
          EXPECT_EQ(o.sizes, arg.sizes) << step.trace_name;
          EXPECT_EQ(o.bytes, arg.bytes) << step.trace_name << " differs from delegate output " << i;
        }
      }
    }
    EXPECT_EQ(graph_outputs_seen, g.outputs.size());
    // The last step writes (at least) one of the delegate's outputs.
    const xnnpack::Step& last = call.plan->steps.back();
    bool writes_output = false;
    for (const uint32_t v : last.outputs) {
      for (const uint32_t out : g.outputs) writes_output = writes_output || v == out;
    }
    EXPECT_TRUE(writes_output);
  }
}

// At IntermediateOutputs, every test case (dynamic_seq's at several
// shapes).
TEST_P(XnnpackTrace, StepOutputsAtIntermediateLevel) {
  RecordingTracer tracer;
  tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  Loaded l;
  ASSERT_TRUE(load(GetParam(), &tracer, &l));
  std::vector<Call> calls;
  ASSERT_TRUE(delegate_calls(*l.program, &calls));
  Result<size_t> cases = l.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    tracer.values.clear();
    tracer.delegate_outputs.clear();
    ASSERT_TRUE(run_case(&l, k));
    check_step_outputs(tracer, calls);
  }
}

// A traced run (profiling runtimes, intermediate outputs) computes the
// same bits as an untraced one.
TEST_P(XnnpackTrace, OutputsBitIdenticalWithoutTracer) {
  RecordingTracer tracer;
  tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  Loaded traced, plain;
  ASSERT_TRUE(load(GetParam(), &tracer, &traced));
  ASSERT_TRUE(load(GetParam(), nullptr, &plain));
  Result<size_t> cases = plain.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    ASSERT_TRUE(run_case(&traced, k));
    ASSERT_TRUE(run_case(&plain, k));
    ASSERT_EQ(traced.method->outputs_size(), plain.method->outputs_size());
    for (size_t o = 0; o < plain.method->outputs_size(); ++o) {
      const Tensor a = plain.method->get_output(o).to_tensor();
      const Tensor b = traced.method->get_output(o).to_tensor();
      ASSERT_EQ(a.nbytes(), b.nbytes());
      EXPECT_EQ(std::memcmp(a.const_data_ptr(), b.const_data_ptr(), a.nbytes()), 0)
          << "output " << o;
    }
  }
}

// q_tiny_cnn: an int8 CNN whose global average pooling runs natively
// between XNNPACK runtimes; the tiny CNN and attention block are fp32 in
// one runtime; partial has two delegates around a portable cumsum;
// dynamic_seq's plan is reshaped for each test case's shapes.
INSTANTIATE_TEST_SUITE_P(Fixtures, XnnpackTrace,
                         ::testing::Values("q_tiny_cnn", "tiny_cnn", "tiny_attention", "partial",
                                           "dynamic_seq"),
                         [](const auto& info) { return info.param; });

// The native step's output is the pooled previous step's output: [N, H, W,
// C] in, [N, 1, 1, C] out, in XNNPACK's layout.
TEST(XnnpackTraceSteps, NativePoolingStepShapes) {
  RecordingTracer tracer;
  tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  Loaded l;
  ASSERT_TRUE(load("q_tiny_cnn", &tracer, &l));
  ASSERT_TRUE(run_case(&l, 0));
  // The delegate's events and their durations, for a reader of the test log.
  for (const Event& e : tracer.events) {
    if (!e.delegate) continue;
    std::cout << "  delegate event: " << e.name << " (" << (e.end - e.start) << " ns)\n";
  }
  const Logged* pooled = nullptr;
  const Logged* before = nullptr;
  for (size_t i = 0; i < tracer.delegate_outputs.size(); ++i) {
    if (tracer.delegate_outputs[i].name.rfind("native:qs8_global_average_pooling ", 0) == 0) {
      pooled = &tracer.delegate_outputs[i];
      ASSERT_GT(i, 0u);
      before = &tracer.delegate_outputs[i - 1];
      break;
    }
  }
  ASSERT_NE(pooled, nullptr) << "no native pooling step";
  ASSERT_EQ(pooled->sizes.size(), 4u);
  ASSERT_EQ(before->sizes.size(), 4u);
  EXPECT_EQ(pooled->type, ScalarType::Char);
  EXPECT_EQ(pooled->sizes[0], before->sizes[0]);
  EXPECT_EQ(pooled->sizes[1], 1);
  EXPECT_EQ(pooled->sizes[2], 1);
  EXPECT_EQ(pooled->sizes[3], before->sizes[3]);
  EXPECT_GT(before->sizes[1] * before->sizes[2], 1);
}

// A tracer attached after load: step events, no per-operator events (the
// runtimes were created without timing); profile_instructions(false):
// no profiling events, outputs still logged.
TEST(XnnpackTraceSteps, TracerAttachedAfterLoadAndProfilingOff) {
  Loaded l;
  ASSERT_TRUE(load("q_tiny_cnn", nullptr, &l));
  RecordingTracer tracer;
  l.method->set_event_tracer(&tracer);
  ASSERT_TRUE(run_case(&l, 0));
  size_t steps = 0;
  for (const Event& e : tracer.events) {
    if (!e.delegate) continue;
    EXPECT_TRUE(std::regex_match(e.name, kStepName)) << e.name << ": an operator event";
    ++steps;
  }
  EXPECT_GT(steps, 1u);
  RecordingTracer quiet;
  quiet.set_profile_instructions(false);
  quiet.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  l.method->set_event_tracer(&quiet);
  ASSERT_TRUE(run_case(&l, 0));
  for (const Event& e : quiet.events) EXPECT_FALSE(e.delegate) << e.name;
  EXPECT_FALSE(quiet.delegate_outputs.empty());
}

}  // namespace
}  // namespace ember::testing
