// aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *,
//     Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)
// aten::max.unary_out(Tensor self, *, Tensor(a!) out)
// dim_max: the maximum along `dim` and the index of its first occurrence
// (a NaN wins: the first NaN). Boxed args: [self, dim, keepdim, values,
// indices] then the return, one tuple value (6 args) or the two tensors
// (7). unary_out: the maximum of all elements (NaN propagates); an empty
// input is refused. Contiguous tensors.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::max.dim_max", extremum_dim_kernel<true>);
EMBER_REGISTER_PREPARED_KERNEL("aten::max.unary_out", extremum_all_kernel<true>);

}  // namespace ember
