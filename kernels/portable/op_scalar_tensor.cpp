// aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out)
// out becomes a zero-dim tensor holding s cast to out's dtype.
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void scalar_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::scalar_tensor.out", 3);
  const Scalar value = a.scalar(0);
  const Tensor out = a.tensor(1);
  if (!a.ok() || !resize_out(a, out, {})) {
    return;
  }
  (void)fill_with_scalar(a, out, value);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::scalar_tensor.out", scalar_tensor_out_boxed);

}  // namespace ember
