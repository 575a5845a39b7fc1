// aten::all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
// aten::all.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
//                   Tensor(a!) out)
// aten::all.all_out(Tensor self, *, Tensor(a!) out)
// true if every element is nonzero (NaN counts as nonzero) over one dim, a list of dims
// (None = all, [] = none) or everything. out is Bool, or Byte (PyTorch's result
// for a Byte self). Contiguous tensors.
#include "kernels/portable/util/all_any.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::all.out", all_any_dim_kernel<true>);
EMBER_REGISTER_PREPARED_KERNEL("aten::all.dims_out", all_any_dims_kernel<true>);
EMBER_REGISTER_PREPARED_KERNEL("aten::all.all_out", all_any_all_kernel<true>);

}  // namespace ember
