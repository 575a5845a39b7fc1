// aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *,
//                Tensor(a!) out)
// aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False)
//     -> Tensor(a!)
// Both write src, broadcast to self's shape and converted to the
// destination dtype: into out (resized to self's shape) or into self. The
// exporter emits copy_ to write back mutable buffers.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

bool check_copy(KernelArgs& a, Tensor self, Tensor src, Tensor dst) {
  if (!check_supported_dtype(a, src, "src") ||
      !check_supported_dtype(a, dst, "destination")) {
    return false;
  }
  if (!broadcasts_to(src.sizes(), self.sizes())) {
    return a.fail(Error::InvalidArgument,
                  "src (%zu dims) does not broadcast to self (%zu dims)",
                  src.dim(), self.dim());
  }
  return true;
}

void copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::copy.out", 5);
  const Tensor self = a.tensor(0), src = a.tensor(1);
  (void)a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_copy(a, self, src, out) ||
      !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, src, out);
}

void copy__boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::copy_", 4);
  const Tensor self = a.tensor(0), src = a.tensor(1);
  (void)a.bool_value(2);
  (void)a.tensor(3);
  if (!a.ok() || !check_copy(a, self, src, self)) {
    return;
  }
  if (self.const_data_ptr() == src.const_data_ptr() &&
      self.scalar_type() == src.scalar_type() && self.numel() == src.numel() &&
      self.dim() == src.dim()) {
    return;  // copying a tensor onto itself
  }
  (void)copy_broadcast(a, src, self);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::copy.out", copy_out_boxed);
EMBER_REGISTER_KERNEL("aten::copy_", copy__boxed);

}  // namespace ember
