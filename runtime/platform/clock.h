// The clock the event tracer (and the runner's profiles) time events with.
//
// A clock is a function returning monotonic ticks and its rate. Defaults:
//   - hosted systems: std::chrono::steady_clock in nanoseconds
//     (1,000,000,000 ticks per second);
//   - M-profile cores (Cortex-M3 and up): the DWT cycle counter, enabled on
//     first use, rate 0 ("cycles; the core clock is not known here") unless
//     the firmware states its core clock with set_clock_rate(). A core
//     without a cycle counter reads 0 and clock_available() is false.
// A firmware with its own timer installs it with set_clock().
#pragma once

#include <cstdint>

namespace ember {

using ClockFn = uint64_t (*)();

// Installs `now` (null restores the default) counting `ticks_per_second`
// (0: an unknown rate, such as raw core cycles).
void set_clock(ClockFn now, uint64_t ticks_per_second);
// States the rate of the current clock (the core clock for DWT cycles).
void set_clock_rate(uint64_t ticks_per_second);

uint64_t clock_ticks();
uint64_t clock_ticks_per_second();
// Whether the clock counts at all (false on a core without a counter).
bool clock_available();

// The M-profile DWT cycle counter (32 bits, widened to 64 by counting
// wraps between reads that are less than one wrap apart). Exposed so a
// firmware can install it explicitly; false / 0 off M-profile.
bool dwt_cycle_counter_start();
uint64_t dwt_cycles();

}  // namespace ember
