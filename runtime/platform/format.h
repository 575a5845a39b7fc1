// Ember's one text formatter: printf formats with C99's length modifiers
// (%zu, %lld, %jd, %td, %hhu) on every C library, newlib-nano included,
// whose printf has none of them. Every message the core writes (error
// messages, log lines) goes through it.
//
// Conversions: d i u o x X c s p % with flags "-+ #0", width, precision
// ("*" for either) and the length modifiers hh h l ll z j t L. The
// floating-point conversions (f F e E g G a A) are formatted one at a time
// by the C library's snprintf with a C89 spec, so their digits are the
// platform's. %n is not supported (it writes nothing).
#pragma once

#include <cstdarg>
#include <cstddef>

#include "runtime/platform/compiler.h"  // EMBER_PRINTF_LIKE

namespace ember {

// Like vsnprintf: writes at most size - 1 characters and a NUL (nothing
// when size is 0), returns the length the whole text has.
size_t vformat_text(char* out, size_t size, const char* fmt, va_list args);
size_t format_text(char* out, size_t size, const char* fmt, ...) EMBER_PRINTF_LIKE(3, 4);

}  // namespace ember
