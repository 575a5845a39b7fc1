// aten::lift_fresh_copy.out(Tensor self, *, Tensor(a!) out)
// Lifting a fresh constant is an export notion: out = self, same dtype and
// shape; out keeps its own dim order. (Export's trace turns this op into a
// clone, so programs hold it only when a pass writes it back.)
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void lift_fresh_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::lift_fresh_copy.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out) || !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::lift_fresh_copy.out", lift_fresh_copy_out_boxed);

}  // namespace ember
