// aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *,
//                  Tensor(a!) out)
// x - max - log(sum(exp(x - max))) along `dim`, computed in float (double for Double). half_to_float
// must be false (as upstream). Floating dtypes; out has self's dtype;
// contiguous tensors. A prepared kernel (see util/softmax.h).
#include "kernels/portable/util/softmax.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_PREPARED_KERNEL("aten::_log_softmax.out", softmax_kernel<true>);

}  // namespace ember
