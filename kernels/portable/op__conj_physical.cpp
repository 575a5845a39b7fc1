// aten::_conj_physical.out(Tensor self, *, Tensor(a!) out)
// The complex conjugate. Ember's tensors hold no complex dtypes, and the
// conjugate of a real tensor is itself: out = self, same dtype and shape.
// out keeps its own dim order.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void conj_physical_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_conj_physical.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out) || !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_conj_physical.out", conj_physical_out_boxed);

}  // namespace ember
