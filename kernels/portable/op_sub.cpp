// aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
// aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                      Tensor(a!) out)
// out = self - alpha * other. Bool operands are refused, as in PyTorch.
#include "kernels/portable/util/add_sub.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::sub.out", add_sub_tensor_kernel<true>);
EMBER_REGISTER_PREPARED_KERNEL("aten::sub.Scalar_out", add_sub_scalar_kernel<true>);

}  // namespace ember
