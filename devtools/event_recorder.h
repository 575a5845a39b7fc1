// EventRecorder: an EventTracer that keeps every event in memory the caller
// hands it, for the ETDump writer (devtools/etdump/etdump_writer.h), the
// runner's profile table and its intermediate-output files.
//
// Memory (no heap): `event_buffer` holds the event records (names, shapes
// and delegate metadata are copied into it); `debug_buffer` holds logged
// tensor data, each tensor's bytes contiguous at a 64-byte-aligned offset
// (upstream's debug-buffer layout; the ETDump refers to these offsets).
// Both must outlive the recorder. When either is full the recorder drops
// what does not fit and counts it (dropped_events(), dropped_tensors()):
// the run itself never fails. A tensor that does not fit in the debug
// buffer is still recorded with its shape, and offset -1.
//
// Tensors are recorded as contiguous bytes with their sizes and the
// contiguous strides of those sizes (non-contiguous dim orders are written
// in memory order; the strides say so).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/event_tracer.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {
namespace devtools {

enum class RecordedEventKind : uint8_t { Profile, Debug };

struct RecordedTensor {
  ScalarType dtype = ScalarType::Float;
  Span<const int64_t> sizes;
  Span<const int64_t> strides;
  int64_t offset = -1;  // into debug_buffer(); -1: not stored (empty, or no room)
  size_t nbytes = 0;    // bytes of data (numel * element size)
};

struct RecordedValue {
  Tag tag = Tag::None;  // Tensor, ListTensor, Int, Double, Bool (None: no value)
  bool is_program_output = false;
  int64_t int_value = 0;
  double double_value = 0;
  bool bool_value = false;
  size_t num_tensors = 0;  // 1 for Tag::Tensor, n for Tag::ListTensor
};

struct RecordedEvent {
  RecordedEventKind kind = RecordedEventKind::Profile;
  size_t block = 0;          // index of the run block it belongs to
  const char* name = nullptr;  // null when the event has none
  int32_t chain_index = kUnsetChainIndex;
  int32_t instruction_id = kUnsetInstructionId;
  int32_t delegate_debug_id_int = kUnsetDelegateDebugId;
  const char* delegate_debug_id_str = nullptr;  // null when unset
  // Profile events.
  uint64_t start_ticks = 0;
  uint64_t end_ticks = 0;
  Span<const uint8_t> delegate_metadata;
  // Debug events.
  RecordedValue value;
};

struct RecordedBlock {
  const char* name = "";
  int32_t bundled_input_index = -1;
  size_t first_event = 0;  // events [first_event, next block's first_event)
};

class EventRecorder final : public EventTracer {
 public:
  EventRecorder(Span<uint8_t> event_buffer, Span<uint8_t> debug_buffer = {});

  // Forgets every block, event and stored tensor (the buffers are reused).
  void reset();

  // ---- EventTracer ----
  void create_event_block(const char* name) override;
  EventTracerEntry start_profiling(const char* name, int32_t chain_index = kUnsetChainIndex,
                                   int32_t instruction_id = kUnsetInstructionId) override;
  void end_profiling(const EventTracerEntry& entry) override;
  EventTracerEntry start_profiling_delegate(const char* name,
                                            int32_t delegate_debug_id) override;
  void end_profiling_delegate(const EventTracerEntry& entry,
                              Span<const uint8_t> metadata = {}) override;
  void log_profiling_delegate(const char* name, int32_t delegate_debug_id,
                              uint64_t start_ticks, uint64_t end_ticks,
                              Span<const uint8_t> metadata = {}) override;
  void log_value(const EValue& value, LoggedValueKind kind) override;
  void log_delegate_output(const char* name, int32_t delegate_debug_id,
                           const Tensor& output) override;

  // ---- Reading what was recorded (valid until reset()) ----
  size_t num_blocks() const;
  RecordedBlock block(size_t index) const;
  size_t num_events() const;
  // Events in the order they were recorded (a profile event is recorded
  // when it ends, so a nested event comes before the one around it).
  RecordedEvent event(size_t index) const;
  // Tensor `i` (< value.num_tensors) of debug event `event_index`.
  RecordedTensor tensor(size_t event_index, size_t i) const;
  // The used part of the debug buffer: what a debug-buffer file holds.
  Span<const uint8_t> debug_buffer() const;

  size_t dropped_events() const { return dropped_events_; }
  size_t dropped_tensors() const { return dropped_tensors_; }
  size_t event_bytes_used() const { return event_used_; }

 private:
  // Layout of event_buffer_ is private to event_recorder.cpp.
  Span<uint8_t> event_buffer_;
  Span<uint8_t> debug_;
  size_t event_used_ = 0;
  size_t debug_used_ = 0;
  size_t dropped_events_ = 0;
  size_t dropped_tensors_ = 0;
  size_t num_events_ = 0;
  size_t num_blocks_ = 0;
};

}  // namespace devtools
}  // namespace ember
