// Ember's error vocabulary.
//
// Every fallible call in the runtime returns an `Error` or a `Result<T>`.
// Codes are grouped by range like upstream ExecuTorch's so tools that print
// the number stay meaningful. The human-readable cause of the most recent
// failure on this thread is available from `last_error_message()`
// (runtime/platform/error_message.h); codes say *what kind* of failure, the
// message says *which table, which index, which bound*.
#pragma once

#include <cstdint>

#include "runtime/platform/error_message.h"

namespace ember {

enum class [[nodiscard]] Error : uint32_t {
  // System.
  Ok = 0x00,
  Internal = 0x01,      // a broken invariant of Ember itself, not bad input
  InvalidState = 0x02,  // the object is not ready for the call (an input
                        // never set, a tensor with no storage)
  EndOfMethod = 0x03,   // (upstream's numbering; unused)

  // Logical: the call, or a value it was given, is wrong.
  NotSupported = 0x10,     // valid, but outside what this runtime or
                           // backend implements
  NotImplemented = 0x11,   // (upstream's numbering; unused)
  InvalidArgument = 0x12,  // a value is out of range or inconsistent (a dim,
                           // a shape, a dtype mismatch)
  InvalidType = 0x13,      // a value is of the wrong type for the operation
                           // (an operator argument whose tag the operator
                           // does not take)
  OperatorMissing = 0x14,  // operators a method needs are not registered
  ExecutionLimit = 0x15,   // the method's instruction budget ran out

  // Resources.
  NotFound = 0x20,                // something looked up is not there (a
                                  // method, a key, a backend, a test case)
  MemoryAllocationFailed = 0x21,  // an allocator the caller gave ran out
  AccessFailed = 0x22,            // reading the data (file, mmap) failed
  InvalidProgram = 0x23,          // the program is malformed: its bytes, or
                                  // an instruction that calls an operator
                                  // with an argument count it does not take
  InvalidExternalData = 0x24,     // an external data file (.ptd) is malformed or
                                  // does not match the program's tensor

  // Delegates.
  DelegateInvalidCompatibility = 0x30,    // a blob this backend cannot read
  DelegateMemoryAllocationFailed = 0x31,  // the backend could not allocate
  DelegateInvalidHandle = 0x32,  // (upstream's numbering; unused)
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
