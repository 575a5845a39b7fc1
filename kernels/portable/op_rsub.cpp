// aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                       Tensor(a!) out)
// out = other - alpha * self in the promoted type (integers wrap). Bool
// operands are refused, as for sub.
#include "kernels/portable/util/add_sub.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void rsub_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  add_sub_scalar_kernel<true, true>(ctx, args, "aten::rsub.Scalar_out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::rsub.Scalar_out", rsub_scalar_out_boxed);

}  // namespace ember
