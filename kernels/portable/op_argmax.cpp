// aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *,
//                  Tensor(a!) out)
// The index of the first maximum along `dim` (None: of the flattened
// input), a NaN winning (the first NaN). out is Long. Contiguous tensors;
// a zero-size reduction is refused.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void argmax_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  arg_extremum_kernel<true>(ctx, args, "aten::argmax.out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::argmax.out", argmax_out_boxed);

}  // namespace ember
