// The platform hooks a firmware (or an app) can replace, in one place.
//
// The core never calls the C library for anything a bare-metal target may
// lack: it logs through a sink (log.h), reads time through a clock
// (clock.h), formats text with its own formatter (format.h), and stops
// through the abort handler below. Each hook has a default that works on a
// hosted system (stderr, std::chrono, std::abort); on an M-profile core the
// default clock reads the DWT cycle counter. Install replacements once, at
// start-up, before loading a program: the setters are not synchronized
// with threads that use the hooks.
#pragma once

#include "runtime/platform/clock.h"
#include "runtime/platform/log.h"

namespace ember {

// Called when the runtime meets a broken internal invariant (never for bad
// input: that is an Error). Must not return; the default logs `reason` and
// calls std::abort(). A firmware may reset the core or trap to a debugger.
using AbortHandler = void (*)(const char* reason);
void set_abort_handler(AbortHandler handler);  // null restores the default
[[noreturn]] void platform_abort(const char* reason);

}  // namespace ember
