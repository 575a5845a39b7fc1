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
namespace {

void min_dim_boxed(KernelContext& ctx, Span<EValue*> args) {
  extremum_dim_kernel<false>(ctx, args, "aten::min.dim_min");
}

void min_unary_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  extremum_all_kernel<false>(ctx, args, "aten::min.unary_out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::min.dim_min", min_dim_boxed);
EMBER_REGISTER_KERNEL("aten::min.unary_out", min_unary_out_boxed);

}  // namespace ember
