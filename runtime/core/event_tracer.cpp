// The clock event tracers time events with: the platform's (clock.h).
#include "runtime/core/event_tracer.h"

#include "runtime/platform/clock.h"

namespace ember {

uint64_t event_tracer_ticks() { return clock_ticks(); }

}  // namespace ember
