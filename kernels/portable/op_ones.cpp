// aten::ones.out(SymInt[] size, *, Tensor(a!) out)
// Resizes out to `size` and fills it with 1 (out's dtype).
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void ones_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::ones.out", 3);
  const Span<int64_t> size = a.int_list(0);
  const Tensor out = a.tensor(1);
  Shape shape;
  if (!a.ok() || !to_shape(a, size, "size", &shape) ||
      !resize_out(a, out, shape.span())) {
    return;
  }
  Scalar value;
  value.i = 1;
  (void)fill_with_scalar(a, out, value);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::ones.out", ones_out_boxed);

}  // namespace ember
