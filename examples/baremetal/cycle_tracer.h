// An event tracer that prints each operator's time on the platform clock
// (runtime/platform/clock.h: the DWT cycle counter on M-profile cores) as
// it finishes. Heap-free, for the bare-metal runner's --cycles. Under QEMU
// the counts show the mechanism, not timing.
#pragma once

#include <cstdint>

#include "runtime/core/event_tracer.h"

namespace ember::baremetal {

class CycleTracer final : public EventTracer {
 public:
  CycleTracer();

  void create_event_block(const char* name) override {}
  EventTracerEntry start_profiling(const char* name, int32_t chain_index,
                                   int32_t instruction_id) override;
  void end_profiling(const EventTracerEntry& entry) override;
  EventTracerEntry start_profiling_delegate(const char* name, int32_t delegate_debug_id) override;
  void end_profiling_delegate(const EventTracerEntry& entry,
                              Span<const uint8_t> metadata) override;
  void log_profiling_delegate(const char* name, int32_t delegate_debug_id, uint64_t start_ticks,
                              uint64_t end_ticks, Span<const uint8_t> metadata) override {}
  void log_value(const EValue& value, LoggedValueKind kind) override {}
  void log_delegate_output(const char* name, int32_t delegate_debug_id,
                           const Tensor& output) override {}

  uint64_t total_ticks() const { return total_; }
  uint32_t events() const { return events_; }

 private:
  static constexpr int kMaxDepth = 8;
  static constexpr int kNameSize = 64;
  char names_[kMaxDepth][kNameSize];
  int depth_ = 0;
  uint64_t total_ = 0;
  uint32_t events_ = 0;
};

}  // namespace ember::baremetal
