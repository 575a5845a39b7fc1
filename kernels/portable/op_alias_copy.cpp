// aten::alias_copy.out(Tensor self, *, Tensor(a!) out)
// An alias as a copy: out = self, same dtype and shape.
// out keeps its own dim order.
#include "kernels/portable/util/copy_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("aten::alias_copy.out", identity_copy_kernel<IdentityCopy::kAlias>);

}  // namespace ember
