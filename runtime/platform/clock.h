// The clock the event tracer (and the runner's profiles) time events with.
//
// A clock is a function returning monotonic ticks and its rate. Defaults:
//   - hosted systems: std::chrono::steady_clock in nanoseconds
//     (1,000,000,000 ticks per second);
//   - M-profile cores: core clock cycles (core_cycles() below), rate 0
//     ("cycles; the core clock is not known here") unless the firmware
//     states its core clock with set_clock_rate().
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
// Core clock cycles on an M-profile core, started on first use: the DWT
// cycle counter where it counts (Cortex-M3 and up with the DWT; QEMU
// models its registers but not the count), else SysTick on the core
// clock, free-running (a firmware that uses SysTick for its tick installs
// its own clock). Widened to 64 bits, which is right as long as reads come
// less than one wrap apart (2^32 cycles for the DWT, 2^24 for SysTick).
// Takes SysTick over. 0 off M-profile.
uint64_t core_cycles();

}  // namespace ember
