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
// buffer is still recorded with its shape, and offset -1. Sizing: an
// event takes a 104-byte record, plus its name (and each profile event's
// name is copied when it starts) rounded up to 8 bytes, plus for each
// logged tensor 32 bytes and 16 per dimension: about 150 bytes per event
// for a portable program; the debug buffer needs each logged tensor's
// bytes rounded up to 64.
//
// Tensors are recorded as contiguous bytes in logical (row-major) order
// with their sizes and the contiguous strides of those sizes: a tensor with
// a permuted dim order (channels-last) is gathered into row-major order, so
// upstream's Inspector, which views the bytes by sizes alone, reads it
// right. Empty tensors: offset -1, nothing stored.
//
// Keys, as upstream's ETDump writer sets them: runtime events take the
// explicit chain/instruction when a chain is given, else the current
// set_chain_instruction() values; delegate events and debug events take
// the current ones. A delegate's string id (the `name` of the *_delegate
// calls) is recorded as delegate_debug_id_str, with `name` null; the int id
// as delegate_debug_id_int. Events before any create_event_block() go to
// an implicit "Default" block. The recorder does not filter by debug
// level: callers check debug_level() before logging (Method does).
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
  // Layout of the event buffer (event_recorder.cpp): fixed-size event
  // records grow up from the start, everything of variable size (names,
  // tensor shapes, metadata, block records) grows down from the end.
  struct EventSlot;
  struct BlockSlot;
  struct TensorSlot;

  EventSlot* slot(size_t index) const;
  const BlockSlot* block_slot(size_t index) const;
  // Reserves `bytes` (8-byte aligned) at the tail; 0 when it does not fit.
  size_t tail_alloc(size_t bytes);
  size_t copy_string(const char* s);  // 0 for null or no room
  const char* string_at(size_t offset) const;
  // Adds an event record; nullptr (and a dropped event) when full.
  EventSlot* add_event(RecordedEventKind kind);
  bool ensure_block();
  bool record_tensor(TensorSlot* slot, const Tensor& t);
  void log_tensors(const Tensor* tensors, size_t n, RecordedValue value,
                   const char* name, int32_t delegate_debug_id);
  void record_profile(const EventTracerEntry& entry, uint64_t end_ticks,
                      Span<const uint8_t> metadata);

  uint8_t* begin_ = nullptr;  // event buffer, 8-byte aligned part
  uint8_t* end_ = nullptr;
  size_t head_ = 0;           // bytes of event records from begin_
  size_t tail_ = 0;           // start of the variable region (offset from begin_)
  size_t first_block_ = 0;    // tail offsets of the oldest and newest block
  size_t last_block_ = 0;     // records (0: none)
  mutable size_t cached_block_index_ = 0;  // the last block() looked up
  mutable size_t cached_block_ = 0;
  bool block_dropped_ = false;  // the newest block did not fit: drop its events
  uint32_t epoch_ = 0;        // bumped by reset(): stale entries are dropped
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
