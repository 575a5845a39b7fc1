// aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *,
//     Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)
// aten::min.unary_out(Tensor self, *, Tensor(a!) out)
// dim_min: the minimum along `dim` and the index of its first occurrence
// (a NaN wins: the first NaN). Boxed args: [self, dim, keepdim, values,
// indices] then the return, one tuple value (6 args) or the two tensors
// (7). unary_out: the minimum of all elements (NaN propagates); an empty
// input is refused. Contiguous tensors.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::min.dim_min", extremum_dim_kernel<false>);
EMBER_REGISTER_PREPARED_KERNEL("aten::min.unary_out", extremum_all_kernel<false>);

}  // namespace ember
