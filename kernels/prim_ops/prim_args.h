// Internal helpers shared by the prim op files (not a public header).
//
// Prim ops are boxed kernels whose arguments come straight from a loaded
// program: the runtime has checked the value indices but not the tags. So
// every prim op checks its argument count and each tag before reading, and
// reports failures through the KernelContext:
//   - wrong argument count            -> Error::InvalidProgram
//   - an argument of the wrong tag    -> Error::InvalidType
//   - a value out of range (dim, division by zero, integer overflow, a
//     shape that does not fit)        -> Error::InvalidArgument
//   - a layout the op cannot alias    -> Error::NotSupported
// Each failure records a message that starts with the operator name.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {
namespace prim {

// Records "<op>: <formatted detail>" and fails the kernel with `error`.
// Always returns false so callers can write `return fail(...)`.
bool fail(KernelContext& context, Error error, const char* op,
          const char* fmt, ...) EMBER_PRINTF_LIKE(4, 5);

// Fails with InvalidProgram unless args.size() == expected (inputs plus the
// return value, as the runtime passes them).
bool check_arg_count(KernelContext& context, Span<EValue*> args,
                     const char* op, size_t expected);

// Fails with InvalidType unless args[i] has tag `tag`.
bool check_tag(KernelContext& context, Span<EValue*> args, const char* op,
               size_t i, Tag tag);

// Re-records the current last_error_message() with "<op>: " in front and
// fails the kernel with `error` (for errors returned by core calls such as
// resize_tensor, which already recorded the detail).
void fail_with_cause(KernelContext& context, Error error, const char* op);

// True when `t` is laid out row-major (identity dim order).
bool is_row_major(Tensor t);

}  // namespace prim
}  // namespace ember
