// aten::view_as_real_copy.out(Tensor self, *, Tensor(a!) out)
// PyTorch's result is a complex self as real pairs (shape + [2], the
// matching real dtype), and it refuses real inputs. Ember's tensors have no
// complex dtypes (a program with a complex tensor is rejected at load), so
// every self this kernel can receive is real: the call checks its
// arguments and fails with InvalidArgument, naming self's dtype. The
// kernel is registered so that a method using the operator loads and
// reports that reason, rather than a missing operator.
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void view_as_real_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::view_as_real_copy.out", 3);
  const Tensor self = a.tensor(0);
  (void)a.tensor(1);
  if (!a.ok()) {
    return;
  }
  a.fail(Error::InvalidArgument,
         "self must be a complex tensor, got %s (this runtime has no complex dtypes)",
         scalar_type_name(self.scalar_type()));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::view_as_real_copy.out", view_as_real_copy_out_boxed);

}  // namespace ember
