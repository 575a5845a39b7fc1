// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
// aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                      Tensor(a!) out)
// out = self + alpha * other, broadcasting, in the promoted type.
#include "kernels/portable/util/add_sub.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::add.out", add_sub_tensor_kernel<false>);
EMBER_REGISTER_PREPARED_KERNEL("aten::add.Scalar_out", add_sub_scalar_kernel<false>);

}  // namespace ember
