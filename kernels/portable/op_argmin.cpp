// aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *,
//                  Tensor(a!) out)
// The index of the first minimum along `dim` (None: of the flattened
// input), a NaN winning (the first NaN). out is Long. Contiguous tensors;
// a zero-size reduction is refused.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void argmin_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  arg_extremum_kernel<false>(ctx, args, "aten::argmin.out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::argmin.out", argmin_out_boxed);

}  // namespace ember
