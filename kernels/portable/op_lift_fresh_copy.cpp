// aten::lift_fresh_copy.out(Tensor self, *, Tensor(a!) out)
// Lifting a fresh constant is an export notion: out = self, same dtype and
// shape; out keeps its own dim order. (Export's trace turns this op into a
// clone, so programs hold it only when a pass writes it back.)
#include "kernels/portable/util/copy_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("aten::lift_fresh_copy.out", identity_copy_kernel<IdentityCopy::kLiftFresh>);

}  // namespace ember
