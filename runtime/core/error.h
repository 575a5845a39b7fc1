// Ember's error vocabulary lives in the platform layer, the bottom of the
// runtime (runtime/platform/error.h); this name is kept for code written
// against it.
#pragma once

#include "runtime/platform/error.h"
