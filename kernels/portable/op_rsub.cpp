// aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                       Tensor(a!) out)
// out = other - alpha * self in the promoted type (integers wrap). Bool
// operands are refused, as for sub.
#include "kernels/portable/util/add_sub.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::rsub.Scalar_out", (add_sub_scalar_kernel<true, true>));

}  // namespace ember
