// aten::alias_copy.out(Tensor self, *, Tensor(a!) out)
// An alias as a copy: out = self, same dtype and shape.
// out keeps its own dim order.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void alias_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::alias_copy.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out) || !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::alias_copy.out", alias_copy_out_boxed);

}  // namespace ember
