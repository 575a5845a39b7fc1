// aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *,
//     Tensor(a!) out)
// out = self << other: self shifted left by other bits, wrapped to the type; 0 for a
// count below 0 or not below the type's width.
// Broadcasting, in the promoted integral type; floating and Bool results are
// refused, as in PyTorch (see util/bitwise.h).
#include "kernels/portable/util/bitwise.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

constexpr Bitwise kOp = Bitwise::kLeftShift;
EMBER_REGISTER_PREPARED_KERNEL("aten::bitwise_left_shift.Tensor_out", bitwise_tensor_kernel<kOp>);
EMBER_REGISTER_PREPARED_KERNEL(
    "aten::bitwise_left_shift.Tensor_Scalar_out", bitwise_scalar_kernel<kOp>);

}  // namespace ember
