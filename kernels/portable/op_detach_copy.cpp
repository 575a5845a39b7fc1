// aten::detach_copy.out(Tensor self, *, Tensor(a!) out)
// Detaching is an autograd notion: out = self, same dtype and shape.
// out keeps its own dim order.
#include "kernels/portable/util/copy_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("aten::detach_copy.out", identity_copy_kernel<IdentityCopy::kDetach>);

}  // namespace ember
