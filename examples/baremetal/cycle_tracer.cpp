#include "examples/baremetal/cycle_tracer.h"

#include <cstdio>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/platform/clock.h"

namespace ember::baremetal {

CycleTracer::CycleTracer() {
  set_debug_level(EventTracerDebugLevel::None);
  set_profile_instructions(true);
}

EventTracerEntry CycleTracer::start_profiling(const char* name, int32_t chain_index,
                                              int32_t instruction_id) {
  EventTracerEntry entry;
  entry.event_id = depth_;
  entry.chain_index = chain_index;
  entry.instruction_id = instruction_id;
  if (depth_ < kMaxDepth) {
    printable_name(name, names_[depth_], kNameSize);
  }
  ++depth_;
  entry.start_ticks = clock_ticks();
  return entry;
}

void CycleTracer::end_profiling(const EventTracerEntry& entry) {
  const uint64_t ticks = clock_ticks() - entry.start_ticks;
  depth_ = depth_ > 0 ? depth_ - 1 : 0;
  const int slot = int(entry.event_id);
  const char* name = slot >= 0 && slot < kMaxDepth ? names_[slot] : "?";
  // Operators only: "Method::execute" and the load events frame them.
  if (std::strncmp(name, "native_call_", 12) == 0 || std::strncmp(name, "fused:", 6) == 0) {
    total_ += ticks;
    ++events_;
    std::printf("  cycles %10llu  %s\n", static_cast<unsigned long long>(ticks), name);
  }
}

EventTracerEntry CycleTracer::start_profiling_delegate(const char* name,
                                                       int32_t delegate_debug_id) {
  return start_profiling(name != nullptr ? name : "delegate", kUnsetChainIndex,
                         kUnsetInstructionId);
}

void CycleTracer::end_profiling_delegate(const EventTracerEntry& entry,
                                         Span<const uint8_t> metadata) {
  end_profiling(entry);
}

}  // namespace ember::baremetal
