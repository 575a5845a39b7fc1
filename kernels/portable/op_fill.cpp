// aten::fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out)
// aten::fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out)
// out (resized to self's shape) is filled with value cast to out's dtype;
// the Tensor form takes a zero-dim value.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void fill_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::fill.Scalar_out", 4);
  const Tensor self = a.tensor(0);
  const Scalar value = a.scalar(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)fill_with_scalar(a, out, value);
}

void fill_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::fill.Tensor_out", 4);
  const Tensor self = a.tensor(0);
  const Tensor value = a.tensor(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_supported_dtype(a, value, "value")) {
    return;
  }
  if (value.dim() != 0) {
    a.fail(Error::InvalidArgument,
           "fill only supports a 0-dimension value tensor, got %zu dims",
           value.dim());
    return;
  }
  if (!resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, value, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::fill.Scalar_out", fill_scalar_out_boxed);
EMBER_REGISTER_KERNEL("aten::fill.Tensor_out", fill_tensor_out_boxed);

}  // namespace ember
