// aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *,
//                  Tensor(a!) out)
// The index of the first minimum along `dim` (None: of the flattened
// input), a NaN winning (the first NaN). out is Long. Contiguous tensors;
// a zero-size reduction is refused.
#include "kernels/portable/util/extremum.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::argmin.out", arg_extremum_kernel<false>);

}  // namespace ember
