#include "examples/executor_runner/runner_profile.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "examples/executor_runner/runner_program_info.h"

namespace ember::runner {
namespace {

constexpr double kNsPerMs = 1e6;

// Time and calls of one row, with its sub-rows (kept in first-seen order
// until sorted for printing).
struct Acc {
  std::string kind;
  uint64_t calls = 0;
  uint64_t ns = 0;
  std::vector<std::pair<std::string, Acc>> children;

  Acc& child(const std::string& name, const char* child_kind) {
    for (auto& [n, a] : children) {
      if (n == name) return a;
    }
    children.emplace_back(name, Acc{});
    children.back().second.kind = child_kind;
    return children.back().second;
  }
};

struct InstrAcc {
  std::string event;
  std::string op;
  uint64_t calls = 0;
  uint64_t ns = 0;
};

bool starts_with(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

bool is_instruction_event(const char* name) {
  for (const char* known : {"OPERATOR_CALL", "DELEGATE_CALL", "MOVE_CALL", "JF_CALL",
                            "FREE_CALL", "UNKNOWN_CALL"}) {
    if (std::strcmp(name, known) == 0) return true;
  }
  return false;
}

bool is_operator_event(const char* name) {
  return starts_with(name, "native_call_") || starts_with(name, "fused:");
}

uint64_t duration(const devtools::RecordedEvent& e) {
  return e.end_ticks >= e.start_ticks ? e.end_ticks - e.start_ticks : 0;
}

// A delegate event's label: its name, else its string id, else its int id.
std::string delegate_label(const devtools::RecordedEvent& e) {
  if (e.name != nullptr) return e.name;
  if (e.delegate_debug_id_str != nullptr) return e.delegate_debug_id_str;
  return "delegate event " + std::to_string(e.delegate_debug_id_int);
}

// A delegate step (design: "<kind> <step>: nodes <first>-<last>").
bool is_delegate_step(const std::string& label) {
  return label.find(": nodes ") != std::string::npos;
}

// "Convolution (NHWC, F32) #12" -> "Convolution (NHWC, F32)".
std::string without_index_suffix(const std::string& label) {
  const size_t hash = label.rfind(" #");
  if (hash == std::string::npos || hash + 2 == label.size()) return label;
  for (size_t i = hash + 2; i < label.size(); ++i) {
    if (label[i] < '0' || label[i] > '9') return label;
  }
  return label.substr(0, hash);
}

// Attributes the events of one delegate call to its row: steps under the
// row, other events under the step whose time span holds them (else under
// the row), and the call's time outside its steps.
void add_delegate_events(Acc& row, const std::vector<devtools::RecordedEvent>& events,
                         uint64_t call_ns) {
  std::vector<const devtools::RecordedEvent*> steps;
  for (const devtools::RecordedEvent& e : events) {
    if (is_delegate_step(delegate_label(e))) steps.push_back(&e);
  }
  uint64_t step_ns = 0;
  for (const devtools::RecordedEvent* s : steps) {
    Acc& a = row.child(printable(delegate_label(*s)), "delegate_step");
    a.calls += 1;
    a.ns += duration(*s);
    step_ns += duration(*s);
  }
  for (const devtools::RecordedEvent& e : events) {
    const std::string label = delegate_label(e);
    if (is_delegate_step(label)) continue;
    Acc* parent = &row;
    for (const devtools::RecordedEvent* s : steps) {
      if (s->start_ticks <= e.start_ticks && e.end_ticks <= s->end_ticks) {
        parent = &row.child(printable(delegate_label(*s)), "delegate_step");
        break;
      }
    }
    Acc& a = parent->child(printable(without_index_suffix(label)), "delegate_event");
    a.calls += 1;
    a.ns += duration(e);
  }
  if (!steps.empty()) {
    Acc& a = row.child("(outside steps)", "other");
    a.calls += 1;
    a.ns += call_ns > step_ns ? call_ns - step_ns : 0;
  }
}

ProfileRow to_row(const std::string& name, const Acc& acc, size_t runs, uint64_t execute_ns) {
  ProfileRow r;
  r.name = name;
  r.kind = acc.kind;
  r.calls_per_run = double(acc.calls) / double(runs);
  r.total_ms_per_run = double(acc.ns) / kNsPerMs / double(runs);
  r.mean_ms = acc.calls ? double(acc.ns) / kNsPerMs / double(acc.calls) : 0.0;
  r.percent = execute_ns ? 100.0 * double(acc.ns) / double(execute_ns) : 0.0;
  for (const auto& [n, a] : acc.children) r.children.push_back(to_row(n, a, runs, execute_ns));
  std::stable_sort(r.children.begin(), r.children.end(),
                   [](const ProfileRow& x, const ProfileRow& y) {
                     return x.total_ms_per_run > y.total_ms_per_run;
                   });
  return r;
}

size_t block_end(const devtools::EventRecorder& recorder, size_t b) {
  return b + 1 < recorder.num_blocks() ? recorder.block(b + 1).first_event
                                       : recorder.num_events();
}

}  // namespace

TracingCost measure_tracing_cost() {
  std::vector<uint8_t> memory(size_t(4) << 20);
  devtools::EventRecorder r(Span<uint8_t>(memory.data(), memory.size()));
  constexpr int kN = 2000;
  TracingCost best{1e30, 1e30};
  char name[192];
  for (int attempt = 0; attempt < 3; ++attempt) {
    r.reset();
    r.create_event_block("Execute");
    uint64_t t0 = event_tracer_ticks();
    for (int i = 0; i < kN; ++i) {
      r.set_chain_instruction(0, i);
      const EventTracerEntry outer = r.start_profiling("OPERATOR_CALL");
      std::snprintf(name, sizeof(name), "native_call_%s%s%s", "convolution", ".", "out");
      const EventTracerEntry inner = r.start_profiling(name);
      r.end_profiling(inner);
      r.end_profiling(outer);
      r.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
    }
    uint64_t t1 = event_tracer_ticks();
    best.kernel_ns = std::min(best.kernel_ns, double(t1 - t0) / kN);
    r.reset();
    r.create_event_block("Execute");
    t0 = event_tracer_ticks();
    for (int i = 0; i < kN; ++i) {
      r.set_chain_instruction(0, i);
      const EventTracerEntry outer = r.start_profiling("MOVE_CALL");
      r.end_profiling(outer);
      r.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
    }
    t1 = event_tracer_ticks();
    best.other_ns = std::min(best.other_ns, double(t1 - t0) / kN);
  }
  return best;
}

namespace {

using InstructionKey = std::pair<int64_t, int64_t>;  // (chain, instruction)

// What build_profile() sums over a method's Execute blocks.
struct ProfileTally {
  Acc rows;  // children: the table's rows
  std::map<InstructionKey, InstrAcc> instrs;
  std::map<InstructionKey, std::string> delegate_ids;  // a delegate call's row name
  uint64_t execute_ns = 0, instr_ns = 0, dispatch_ns = 0, other_ns = 0;
  uint64_t first_execute_ns = 0;  // what the first run took
  uint64_t instr_count = 0, kernel_count = 0, delegate_event_count = 0;
};

// The events since the last instruction event, which belong to the next.
struct PendingEvents {
  std::vector<devtools::RecordedEvent> nested;     // operator events
  std::vector<devtools::RecordedEvent> delegated;  // a delegate call's events

  void clear() {
    delegated.clear();
    nested.clear();
  }
};

// An OPERATOR_CALL: its operator's row gets the operator event's time; the
// rest of the instruction's time is dispatch.
void tally_operator_call(uint64_t ns, const PendingEvents& pending, ProfileTally& t,
                         InstrAcc& ia) {
  t.kernel_count += 1;
  const std::string op = pending.nested.empty() ? "OPERATOR_CALL (no operator event)"
                                                : printable(pending.nested.back().name);
  const uint64_t op_ns = pending.nested.empty() ? 0 : duration(pending.nested.back());
  t.dispatch_ns += ns > op_ns ? ns - op_ns : 0;
  Acc& row = t.rows.child(op, "operator");
  row.calls += 1;
  row.ns += op_ns;
  ia.op = op;
}

// "delegate <backend id> (c<chain>/i<instruction>)", named once per key.
const std::string& delegate_row_name(const Program& program, const std::string& method,
                                     const InstructionKey& key, ProfileTally& t) {
  auto found = t.delegate_ids.find(key);
  if (found == t.delegate_ids.end()) {
    const InstructionInfo info = instruction_info(program, method, key.first, key.second);
    const std::string id = info.op.empty() ? "?" : printable(info.op);
    found = t.delegate_ids
                .emplace(key, "delegate " + id + " (c" + std::to_string(key.first) + "/i" +
                                  std::to_string(key.second) + ")")
                .first;
  }
  return found->second;
}

// A DELEGATE_CALL: its row, with the delegate's own events under it.
void tally_delegate_call(const std::string& name, uint64_t ns, const PendingEvents& pending,
                         ProfileTally& t, InstrAcc& ia) {
  Acc& row = t.rows.child(name, "delegate");
  row.calls += 1;
  row.ns += ns;
  add_delegate_events(row, pending.delegated, ns);
  t.delegate_event_count += pending.delegated.size();
  ia.op = name;
}

// An instruction event (OPERATOR_CALL, DELEGATE_CALL, MOVE_CALL, ...),
// which takes the pending events.
void tally_instruction(const Program& program, const std::string& method,
                       const devtools::RecordedEvent& e, uint64_t ns, PendingEvents& pending,
                       ProfileTally& t) {
  const InstructionKey key(e.chain_index, e.instruction_id);
  InstrAcc& ia = t.instrs[key];
  ia.event = e.name;
  ia.calls += 1;
  ia.ns += ns;
  t.instr_ns += ns;
  t.instr_count += 1;
  if (std::strcmp(e.name, "OPERATOR_CALL") == 0) {
    tally_operator_call(ns, pending, t, ia);
  } else if (std::strcmp(e.name, "DELEGATE_CALL") == 0) {
    tally_delegate_call(delegate_row_name(program, method, key, t), ns, pending, t, ia);
  } else {
    t.other_ns += ns;
    ia.op = e.name;
  }
  pending.clear();
}

// The profiling events of Execute block b, in order.
void tally_block(const devtools::EventRecorder& recorder, const Program& program,
                 const std::string& method, size_t b, ProfileTally& t) {
  PendingEvents pending;
  for (size_t i = recorder.block(b).first_event; i < block_end(recorder, b); ++i) {
    const devtools::RecordedEvent e = recorder.event(i);
    if (e.kind != devtools::RecordedEventKind::Profile) continue;
    const uint64_t ns = duration(e);
    if (e.name != nullptr && std::strcmp(e.name, "Method::execute") == 0) {
      t.execute_ns += ns;
      pending.clear();
    } else if (e.name != nullptr && is_operator_event(e.name)) {
      pending.nested.push_back(e);
    } else if (e.name == nullptr || !is_instruction_event(e.name)) {
      pending.delegated.push_back(e);
    } else {
      tally_instruction(program, method, e, ns, pending, t);
    }
  }
}

// Method::execute per run, the first run's and the later runs' mean.
void set_execute_times(const ProfileTally& t, MethodProfile& p) {
  const double runs = double(p.runs);
  const uint64_t first_execute_ns = p.runs == 1 ? t.execute_ns : t.first_execute_ns;
  p.execute_ms_per_run = double(t.execute_ns) / kNsPerMs / runs;
  p.first_execute_ms = double(first_execute_ns) / kNsPerMs;
  p.later_execute_ms_mean =
      p.runs > 1 ? double(t.execute_ns - first_execute_ns) / kNsPerMs / (runs - 1) : 0.0;
}

// The table's rows, by total time, descending.
void set_rows(const ProfileTally& t, MethodProfile& p) {
  for (const auto& [name, acc] : t.rows.children) {
    p.rows.push_back(to_row(name, acc, p.runs, t.execute_ns));
  }
  std::stable_sort(p.rows.begin(), p.rows.end(), [](const ProfileRow& x, const ProfileRow& y) {
    return x.total_ms_per_run > y.total_ms_per_run;
  });
}

// The framework's own time, event counts and the recording's estimated cost.
void set_overheads(const ProfileTally& t, const TracingCost& cost, MethodProfile& p) {
  const double runs = double(p.runs);
  p.dispatch_ms_per_run = double(t.dispatch_ns) / kNsPerMs / runs;
  p.other_instr_ms_per_run = double(t.other_ns) / kNsPerMs / runs;
  p.between_ms_per_run =
      double(t.execute_ns > t.instr_ns ? t.execute_ns - t.instr_ns : 0) / kNsPerMs / runs;
  p.instructions_per_run = double(t.instr_count) / runs;
  p.kernel_instructions_per_run = double(t.kernel_count) / runs;
  p.delegate_events_per_run = double(t.delegate_event_count) / runs;
  p.tracing_cost = cost;
  // A delegate's event costs about what one instruction event costs.
  p.tracing_ms_per_run = (double(t.kernel_count) * cost.kernel_ns +
                          double(t.instr_count - t.kernel_count + t.delegate_event_count) *
                              cost.other_ns) /
                         kNsPerMs / runs;
}

// One entry per instruction, by chain and instruction, with its source frame.
void set_instructions(const ProfileTally& t, const Program& program, const std::string& method,
                      MethodProfile& p) {
  const double runs = double(p.runs);
  for (const auto& [key, ia] : t.instrs) {
    InstructionProfile ip;
    ip.chain = key.first;
    ip.instruction = key.second;
    ip.event = ia.event;
    ip.op = ia.op;
    ip.calls_per_run = double(ia.calls) / runs;
    ip.mean_ms = ia.calls ? double(ia.ns) / kNsPerMs / double(ia.calls) : 0.0;
    ip.total_ms_per_run = double(ia.ns) / kNsPerMs / runs;
    ip.frame = frame_text(instruction_info(program, method, key.first, key.second).frame);
    p.instructions.push_back(std::move(ip));
  }
}

}  // namespace

MethodProfile build_profile(const devtools::EventRecorder& recorder, const Program& program,
                            const std::string& method, const std::vector<size_t>& blocks,
                            const TracingCost& cost) {
  MethodProfile p;
  p.method = printable(method);
  p.runs = blocks.size();
  if (blocks.empty()) return p;
  ProfileTally t;
  for (size_t n = 0; n < blocks.size(); ++n) {
    if (n == 1) t.first_execute_ns = t.execute_ns;  // what the first run took
    tally_block(recorder, program, method, blocks[n], t);
  }
  set_execute_times(t, p);
  set_rows(t, p);
  set_overheads(t, cost, p);
  set_instructions(t, program, method, p);
  return p;
}

namespace {

size_t name_width(const std::vector<ProfileRow>& rows, size_t indent) {
  size_t w = 0;
  for (const ProfileRow& r : rows) {
    w = std::max({w, r.name.size() + indent, name_width(r.children, indent + 2)});
  }
  return w;
}

void print_rows(const std::vector<ProfileRow>& rows, size_t indent, int width, FILE* out) {
  for (const ProfileRow& r : rows) {
    const std::string name = std::string(indent, ' ') + r.name;
    fprintf(out, "  %-*s %10.2f %13.4f %11.4f %8.2f%%\n", width, name.c_str(),
            r.calls_per_run, r.total_ms_per_run, r.mean_ms, r.percent);
    print_rows(r.children, indent + 2, width, out);
  }
}

double percent_of(double ms, double total) { return total > 0 ? 100.0 * ms / total : 0.0; }

nlohmann::json row_json(const ProfileRow& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["kind"] = r.kind;
  j["calls_per_run"] = r.calls_per_run;
  j["total_ms_per_run"] = r.total_ms_per_run;
  j["mean_ms"] = r.mean_ms;
  j["percent_of_execute"] = r.percent;
  if (!r.children.empty()) {
    nlohmann::json children = nlohmann::json::array();
    for (const ProfileRow& c : r.children) children.push_back(row_json(c));
    j["children"] = children;
  }
  return j;
}

}  // namespace

void print_profile(const MethodProfile& p, bool verbose, const std::string& note, FILE* out) {
  fprintf(out, "\nProfile of method '%s': %zu execution(s), all included (the first, cold, "
          "too); times per run are averages over them. Method::execute: %.4f ms per run",
          p.method.c_str(), p.runs, p.execute_ms_per_run);
  if (p.runs > 1) {
    fprintf(out, " (the first %.4f ms, the others %.4f ms on average)", p.first_execute_ms,
            p.later_execute_ms_mean);
  }
  fprintf(out, ".\n");
  if (!note.empty()) fprintf(out, "  %s\n", note.c_str());
  const int width = int(std::min<size_t>(std::max<size_t>(name_width(p.rows, 0), 8), 80));
  fprintf(out, "  %-*s %10s %13s %11s %9s\n", width, "operator", "calls/run", "total ms/run",
          "mean ms", "% execute");
  print_rows(p.rows, 0, width, out);
  const double total = p.execute_ms_per_run;
  fprintf(out, "  Framework overhead, per run:\n");
  fprintf(out, "    operator dispatch (OPERATOR_CALL minus its operator): %.4f ms (%.2f%%)\n",
          p.dispatch_ms_per_run, percent_of(p.dispatch_ms_per_run, total));
  fprintf(out, "    MOVE/JF/FREE instructions:                            %.4f ms (%.2f%%)\n",
          p.other_instr_ms_per_run, percent_of(p.other_instr_ms_per_run, total));
  fprintf(out, "    between instructions (Method::execute minus them):    %.4f ms (%.2f%%)\n",
          p.between_ms_per_run, percent_of(p.between_ms_per_run, total));
  fprintf(out,
          "  Profiling overhead (estimate; recording measured on a scratch recorder: %.0f ns "
          "per kernel instruction, %.0f ns per other instruction or delegate event): %.1f "
          "instructions",
          p.tracing_cost.kernel_ns, p.tracing_cost.other_ns, p.instructions_per_run);
  if (p.delegate_events_per_run > 0) {
    fprintf(out, " and %.1f delegate events", p.delegate_events_per_run);
  }
  fprintf(out,
          " per run: %.4f ms per run (%.2f%% of Method::execute), included in the times "
          "above.\n",
          p.tracing_ms_per_run, percent_of(p.tracing_ms_per_run, total));
  if (!verbose) return;
  fprintf(out, "  Per instruction:\n  %5s %6s %-40s %10s %11s  %s\n", "chain", "instr",
          "operator", "calls/run", "mean ms", "source");
  for (const InstructionProfile& ip : p.instructions) {
    fprintf(out, "  %5lld %6lld %-40s %10.2f %11.4f  %s\n", static_cast<long long>(ip.chain),
            static_cast<long long>(ip.instruction), ip.op.c_str(), ip.calls_per_run,
            ip.mean_ms, ip.frame.c_str());
  }
}

nlohmann::json profile_json(const MethodProfile& p) {
  nlohmann::json j;
  j["method"] = p.method;
  j["runs"] = p.runs;
  j["first_run_included"] = true;
  j["execute_ms_per_run"] = p.execute_ms_per_run;
  j["first_execute_ms"] = p.first_execute_ms;
  j["later_execute_ms_mean"] = p.later_execute_ms_mean;
  nlohmann::json rows = nlohmann::json::array();
  for (const ProfileRow& r : p.rows) rows.push_back(row_json(r));
  j["operators"] = rows;
  j["overhead_ms_per_run"] = {{"operator_dispatch", p.dispatch_ms_per_run},
                              {"move_jf_free", p.other_instr_ms_per_run},
                              {"between_instructions", p.between_ms_per_run}};
  j["profiling_overhead"] = {
      {"ms_per_run", p.tracing_ms_per_run},
      {"ns_per_kernel_instruction", p.tracing_cost.kernel_ns},
      {"ns_per_other_event", p.tracing_cost.other_ns},
      {"instructions_per_run", p.instructions_per_run},
      {"delegate_events_per_run", p.delegate_events_per_run},
      {"percent_of_execute", percent_of(p.tracing_ms_per_run, p.execute_ms_per_run)}};
  nlohmann::json instrs = nlohmann::json::array();
  for (const InstructionProfile& ip : p.instructions) {
    instrs.push_back({{"chain", ip.chain},
                      {"instruction", ip.instruction},
                      {"event", ip.event},
                      {"operator", ip.op},
                      {"calls_per_run", ip.calls_per_run},
                      {"mean_ms", ip.mean_ms},
                      {"total_ms_per_run", ip.total_ms_per_run},
                      {"source", ip.frame.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(ip.frame)}});
  }
  j["instructions"] = instrs;
  return j;
}

}  // namespace ember::runner
