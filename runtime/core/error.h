// Ember's error vocabulary.
//
// Every fallible call in the runtime returns an `Error` or a `Result<T>`.
// Codes are grouped by range like upstream ExecuTorch's so tools that print
// the number stay meaningful. The human-readable cause of the most recent
// failure on this thread is available from `last_error_message()`
// (runtime/core/error_message.h); codes say *what kind* of failure, the
// message says *which table, which index, which bound*.
#pragma once

#include <cstdint>

#include "runtime/core/error_message.h"

namespace ember {

enum class [[nodiscard]] Error : uint32_t {
  Ok = 0x00,
  Internal = 0x01,
  InvalidState = 0x02,
  EndOfMethod = 0x03,

  NotSupported = 0x10,
  NotImplemented = 0x11,
  InvalidArgument = 0x12,
  InvalidType = 0x13,
  OperatorMissing = 0x14,
  ExecutionLimit = 0x15,

  NotFound = 0x20,
  MemoryAllocationFailed = 0x21,
  AccessFailed = 0x22,
  InvalidProgram = 0x23,
  InvalidExternalData = 0x24,

  DelegateInvalidCompatibility = 0x30,
  DelegateMemoryAllocationFailed = 0x31,
  DelegateInvalidHandle = 0x32,
};

// A short stable name for `e` ("InvalidProgram"); never null.
const char* error_name(Error e);

}  // namespace ember

// Propagates a non-Ok Error from `expr` to the caller.
#define EMBER_RETURN_IF_ERROR(expr)        \
  do {                                     \
    const ::ember::Error ember_err_ = (expr); \
    if (ember_err_ != ::ember::Error::Ok) { \
      return ember_err_;                   \
    }                                      \
  } while (0)

// If `cond` is false: records a formatted message for last_error_message()
// and returns `err` from the enclosing function.
#define EMBER_CHECK_OR_RETURN(cond, err, ...)          \
  do {                                                 \
    if (!(cond)) {                                     \
      ::ember::set_error_message(__VA_ARGS__);         \
      return (err);                                    \
    }                                                  \
  } while (0)
