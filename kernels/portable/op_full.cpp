// aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out)
// Resizes out to `size` and fills it with fill_value cast to out's dtype.
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void full_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::full.out", 4);
  const Span<int64_t> size = a.int_list(0);
  const Scalar value = a.scalar(1);
  const Tensor out = a.tensor(2);
  Shape shape;
  if (!a.ok() || !to_shape(a, size, "size", &shape) ||
      !resize_out(a, out, shape.span())) {
    return;
  }
  (void)fill_with_scalar(a, out, value);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::full.out", full_out_boxed);

}  // namespace ember
