#include "kernels/prim_ops/prim_args.h"

#include <cstdarg>
#include <cstdio>

namespace ember {
namespace prim {

bool fail(KernelContext& context, Error error, const char* op,
          const char* fmt, ...) {
  char detail[kMaxErrorMessage / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof(detail), fmt, ap);
  va_end(ap);
  set_error_message("%s: %s", op, detail);
  context.fail(error);
  return false;
}

bool check_arg_count(KernelContext& context, Span<EValue*> args,
                     const char* op, size_t expected) {
  if (args.size() != expected) {
    return fail(context, Error::InvalidProgram, op,
                "expected %zu arguments (inputs and return), got %zu",
                expected, args.size());
  }
  return true;
}

bool check_tag(KernelContext& context, Span<EValue*> args, const char* op,
               size_t i, Tag tag) {
  if (args[i]->tag() != tag) {
    return fail(context, Error::InvalidType, op,
                "argument %zu should be %s, got %s", i, tag_name(tag),
                tag_name(args[i]->tag()));
  }
  return true;
}

void fail_with_cause(KernelContext& context, Error error, const char* op) {
  prefix_error_message(error_name(error), "%s", op);
  context.fail(error);
}

bool is_row_major(Tensor t) { return is_contiguous_dim_order(t.dim_order()); }

}  // namespace prim
}  // namespace ember
