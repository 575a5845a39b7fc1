// aten::_softmax.out(Tensor self, int dim, bool half_to_float, *,
//                  Tensor(a!) out)
// exp(x - max) / sum(exp(x - max)) along `dim`, computed in float (double for Double). half_to_float
// must be false (as upstream). Floating dtypes; out has self's dtype;
// contiguous tensors. A prepared kernel (see util/softmax.h).
#include "kernels/portable/util/softmax.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::_softmax.out", softmax_kernel<false>);

}  // namespace ember
