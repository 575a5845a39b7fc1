// The per-thread error message lives in the platform layer, the bottom of
// the runtime (runtime/platform/error_message.h); this name is kept for
// code written against it.
#pragma once

#include "runtime/platform/error_message.h"
