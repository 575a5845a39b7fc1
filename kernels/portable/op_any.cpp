// aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
// aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
//                   Tensor(a!) out)
// aten::any.all_out(Tensor self, *, Tensor(a!) out)
// true if any element is nonzero (NaN counts as nonzero) over one dim, a list of dims
// (None = all, [] = none) or everything. out is Bool, or Byte (PyTorch's result
// for a Byte self). Contiguous tensors.
#include "kernels/portable/util/all_any.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::any.out", all_any_dim_kernel<false>);
EMBER_REGISTER_PREPARED_KERNEL("aten::any.dims_out", all_any_dims_kernel<false>);
EMBER_REGISTER_PREPARED_KERNEL("aten::any.all_out", all_any_all_kernel<false>);

}  // namespace ember
