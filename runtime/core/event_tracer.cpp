// The clock event tracers time events with.
#include "runtime/core/event_tracer.h"

#include <chrono>

namespace ember {

uint64_t event_tracer_ticks() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

}  // namespace ember
