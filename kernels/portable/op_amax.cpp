// aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *,
//               Tensor(a!) out)
// The maximum over `dim` ([] = all dims); NaN propagates. out has self's
// dtype; self and out contiguous. A zero-size reduction is refused.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::amax.out", extremum_dims_kernel<true>);

}  // namespace ember
