// aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *,
//               Tensor(a!) out)
// The minimum over `dim` ([] = all dims); NaN propagates. out has self's
// dtype; self and out contiguous. A zero-size reduction is refused.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void amin_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  extremum_dims_kernel<false>(ctx, args, "aten::amin.out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::amin.out", amin_out_boxed);

}  // namespace ember
