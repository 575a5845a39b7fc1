// What Ember needs from the compiler and the C library, in one place: the
// printf-format check on Ember's own formatting functions, and the 64-bit
// PRI macros that newlib leaves out.
#pragma once

#include <cinttypes>

// newlib 3.3 (arm-none-eabi) leaves the 64-bit PRI macros out when GCC's
// own <stdint.h> defined the types first; int64_t is long long there.
// (Ember's formatter, runtime/platform/format.h, reads them everywhere.)
#if !defined(PRIu64) && defined(__arm__)
#define PRId64 "lld"
#define PRIi64 "lli"
#define PRIu64 "llu"
#define PRIx64 "llx"
#define PRIX64 "llX"
#endif

#if defined(__GNUC__)
#define EMBER_PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#else
#define EMBER_PRINTF_LIKE(a, b)
#endif
