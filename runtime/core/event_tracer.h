// EventTracer: what the runtime reports while it loads and runs a method,
// for profiling and for debugging numerics.
//
// An application attaches a tracer to a Method (Program::load_method's
// `event_tracer` argument or Method::set_event_tracer). With none attached
// the runtime pays one null check per instruction and nothing else.
//
// What the runtime reports, with upstream ExecuTorch's names and keys (so
// that an ETDump written from these events reads in upstream's Inspector):
//   load     block "Default"; profiling "Program::load_method" around the
//            whole load and "Method::init" around the method's own part.
//   execute  block "Execute"; profiling "Method::execute" around the run;
//            per instruction an "OPERATOR_CALL", "DELEGATE_CALL", "JF_CALL",
//            "MOVE_CALL" or "FREE_CALL" event keyed by chain index and
//            instruction index; inside OPERATOR_CALL a nested event named
//            "native_call_<op>.<overload>" (the "aten::" namespace dropped,
//            as upstream's generated wrappers name it).
//   debug    at IntermediateOutputs: each kernel's outputs after it runs,
//            every argument of a delegate call after it returns; at
//            ProgramOutputs and above: the method's outputs, marked as
//            program outputs, after the last instruction.
// Delegates get the tracer from BackendExecutionContext::event_tracer() and
// report their own steps with the *_delegate calls; those events carry the
// instruction index of the DelegateCall that ran them.
//
// Contracts for implementations: every `name` and every logged value is
// valid only during the call (copy what you keep). Calls never fail the
// run: a tracer that runs out of room drops events and says so itself.
// Not thread-safe: one tracer per Method, called from the thread running it
// (a delegate's worker threads must not call it). Two Methods that may
// execute at the same time must not share a tracer; attach one to each.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember {

enum class EventTracerDebugLevel : uint8_t {
  None,                 // no debug events
  ProgramOutputs,       // the method's outputs after each run
  IntermediateOutputs,  // and every kernel's / delegate call's outputs
};

enum class LoggedValueKind : uint8_t { IntermediateOutput, ProgramOutput };

constexpr int32_t kUnsetChainIndex = -1;
constexpr int32_t kUnsetInstructionId = -1;
constexpr int32_t kUnsetDelegateDebugId = -1;

// Handle from a start_* call, passed back to the matching end_* call.
struct EventTracerEntry {
  int64_t event_id = -1;  // implementation-defined (a name slot, say)
  int32_t chain_index = kUnsetChainIndex;
  int32_t instruction_id = kUnsetInstructionId;
  int32_t delegate_debug_id = kUnsetDelegateDebugId;
  bool is_delegate = false;
  uint64_t start_ticks = 0;
};

// The clock every event is timed with: the platform clock (runtime/platform/
// clock.h), monotonic nanoseconds on hosted systems by default, DWT cycles
// on M-profile cores; clock_ticks_per_second() gives the rate.
uint64_t event_tracer_ticks();

class EventTracer {
 public:
  virtual ~EventTracer() = default;

  // Starts a run block; later events belong to it until the next one.
  virtual void create_event_block(const char* name) = 0;

  // A runtime event. With chain_index / instruction_id unset, the ones set
  // by set_chain_instruction() are used.
  virtual EventTracerEntry start_profiling(const char* name,
                                           int32_t chain_index = kUnsetChainIndex,
                                           int32_t instruction_id = kUnsetInstructionId) = 0;
  // Records the event from entry.start_ticks (which a caller may set to
  // an earlier time it took itself) to now.
  virtual void end_profiling(const EventTracerEntry& entry) = 0;

  // A delegate's own step, identified by exactly one of `name` (non-null)
  // or `delegate_debug_id` (not kUnsetDelegateDebugId), as upstream asks.
  // `metadata` is opaque bytes stored with the event.
  virtual EventTracerEntry start_profiling_delegate(const char* name,
                                                    int32_t delegate_debug_id) = 0;
  virtual void end_profiling_delegate(const EventTracerEntry& entry,
                                      Span<const uint8_t> metadata = {}) = 0;
  // A step timed by the delegate itself (times from event_tracer_ticks()).
  virtual void log_profiling_delegate(const char* name, int32_t delegate_debug_id,
                                      uint64_t start_ticks, uint64_t end_ticks,
                                      Span<const uint8_t> metadata = {}) = 0;

  // A value: a kernel's output, a delegate call's argument, a program
  // output. Tensors, tensor lists, ints, doubles and bools are recorded.
  virtual void log_value(const EValue& value, LoggedValueKind kind) = 0;
  // A delegate step's output tensor, keyed like start_profiling_delegate.
  virtual void log_delegate_output(const char* name, int32_t delegate_debug_id,
                                   const Tensor& output) = 0;

  // The instruction the runtime is about to run (kUnset* after it ran).
  void set_chain_instruction(int32_t chain_index, int32_t instruction_id) {
    chain_index_ = chain_index;
    instruction_id_ = instruction_id;
  }
  int32_t chain_index() const { return chain_index_; }
  int32_t instruction_id() const { return instruction_id_; }

  // The bundled test case whose inputs were loaded (-1: none); recorded
  // with the run blocks created after it is set.
  void set_bundled_input_index(int32_t index) { bundled_input_index_ = index; }
  int32_t bundled_input_index() const { return bundled_input_index_; }

  void set_debug_level(EventTracerDebugLevel level) { debug_level_ = level; }
  EventTracerDebugLevel debug_level() const { return debug_level_; }
  // Per-instruction profiling events (Method::execute is always timed).
  void set_profile_instructions(bool on) { profile_instructions_ = on; }
  bool profile_instructions() const { return profile_instructions_; }

 private:
  int32_t chain_index_ = kUnsetChainIndex;
  int32_t instruction_id_ = kUnsetInstructionId;
  int32_t bundled_input_index_ = -1;
  EventTracerDebugLevel debug_level_ = EventTracerDebugLevel::None;
  bool profile_instructions_ = true;
};

// Times a block of code as one profiling event; does nothing without a
// tracer.
class EventTracerScope final {
 public:
  EventTracerScope(EventTracer* tracer, const char* name) : tracer_(tracer) {
    if (tracer_ != nullptr) {
      entry_ = tracer_->start_profiling(name);
    }
  }
  ~EventTracerScope() {
    if (tracer_ != nullptr) {
      tracer_->end_profiling(entry_);
    }
  }
  EventTracerScope(const EventTracerScope&) = delete;
  EventTracerScope& operator=(const EventTracerScope&) = delete;

 private:
  EventTracer* tracer_;
  EventTracerEntry entry_;
};

}  // namespace ember
