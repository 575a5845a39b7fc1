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
namespace {

void all_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  all_any_dim_kernel<true>(ctx, args, "aten::all.out");
}

void all_dims_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  all_any_dims_kernel<true>(ctx, args, "aten::all.dims_out");
}

void all_all_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  all_any_all_kernel<true>(ctx, args, "aten::all.all_out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::all.out", all_out_boxed);
EMBER_REGISTER_KERNEL("aten::all.dims_out", all_dims_out_boxed);
EMBER_REGISTER_KERNEL("aten::all.all_out", all_all_out_boxed);

}  // namespace ember
