// aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// out = self ^ other in the promoted integral type (logical for Bool);
// floating operands are refused, as in PyTorch.
#include "kernels/portable/util/bitwise.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

constexpr Bitwise kOp = Bitwise::kXor;
EMBER_REGISTER_PREPARED_KERNEL("aten::bitwise_xor.Tensor_out", bitwise_tensor_kernel<kOp>);
EMBER_REGISTER_PREPARED_KERNEL("aten::bitwise_xor.Scalar_out", bitwise_scalar_kernel<kOp>);

}  // namespace ember
