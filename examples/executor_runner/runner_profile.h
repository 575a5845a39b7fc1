// executor_runner --profile: a per-operator table built from the profiling
// events an EventRecorder holds for a method's "Execute" blocks (one block
// per execute()).
//
// Rows: one per operator event name ("native_call_<op>.<overload>" nested
// in OPERATOR_CALL, or "fused:<pattern>"), and one per delegate call
// (DELEGATE_CALL, named by the delegate's backend id and instruction) with
// the delegate's own step events under it (and the events inside a step,
// e.g. XNNPACK's operators, under the step, aggregated by name without
// their " #<i>" suffix). Times are per run: totals over every Execute block
// divided by their number, so the first (cold) run is included. Then the
// framework's own time (OPERATOR_CALL minus its operator, MOVE/JF/FREE
// instructions, time between instructions) and an estimate of what the
// profiling itself costs per instruction.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "devtools/event_recorder.h"
#include "runtime/executor/program.h"

namespace ember::runner {

struct ProfileRow {
  std::string name;  // escaped for printing
  std::string kind;  // "operator", "delegate", "delegate_step", "delegate_event", "other"
  double calls_per_run = 0;
  double total_ms_per_run = 0;
  double mean_ms = 0;  // per call
  double percent = 0;  // of Method::execute
  std::vector<ProfileRow> children;
};

struct InstructionProfile {
  int64_t chain = 0;
  int64_t instruction = 0;
  std::string op;     // escaped
  std::string event;  // OPERATOR_CALL, DELEGATE_CALL, ...
  double calls_per_run = 0;
  double mean_ms = 0;  // of the instruction event, per call
  double total_ms_per_run = 0;
  std::string frame;  // escaped "file:line (name): context", or ""
};

// What recording costs, measured on a scratch recorder: nanoseconds per
// kernel instruction (two nested events) and per other instruction (one).
struct TracingCost {
  double kernel_ns = 0;
  double other_ns = 0;
};
TracingCost measure_tracing_cost();

struct MethodProfile {
  std::string method;  // escaped
  size_t runs = 0;
  double execute_ms_per_run = 0;
  double first_execute_ms = 0;        // the first (cold) run alone
  double later_execute_ms_mean = 0;   // the runs after it (0 with one run)
  std::vector<ProfileRow> rows;  // sorted by total time, descending
  double dispatch_ms_per_run = 0;      // OPERATOR_CALL minus its operator event
  double other_instr_ms_per_run = 0;   // MOVE_CALL, JF_CALL, FREE_CALL
  double between_ms_per_run = 0;       // Method::execute minus instruction events
  double instructions_per_run = 0;     // instruction events per run
  double kernel_instructions_per_run = 0;
  double delegate_events_per_run = 0;  // a delegate's own events (steps, operators)
  double tracing_ms_per_run = 0;       // estimated cost of the events themselves
  TracingCost tracing_cost;
  std::vector<InstructionProfile> instructions;  // by chain, instruction
};

// The profile of `method` from the Execute blocks `blocks` of `recorder`.
MethodProfile build_profile(const devtools::EventRecorder& recorder, const Program& program,
                            const std::string& method, const std::vector<size_t>& blocks,
                            const TracingCost& cost);

// `note`: one line printed under the heading (e.g. that intermediate
// outputs were logged while timing).
void print_profile(const MethodProfile& profile, bool verbose, const std::string& note,
                   FILE* out);
nlohmann::json profile_json(const MethodProfile& profile);

}  // namespace ember::runner
