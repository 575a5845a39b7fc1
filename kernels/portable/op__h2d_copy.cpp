// et_copy::_h2d_copy.out(Tensor self, *, Tensor(a!) out)
// Upstream's host-to-device copy, which its device-placement pass inserts
// where a program hands a tensor to an accelerator-delegated subgraph.
// Ember keeps every tensor in host memory (it has no device allocators),
// so the copy is a host copy: out = self, same dtype and shape; out keeps
// its own dim order (util/copy_util.h).
#include "kernels/portable/util/copy_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

EMBER_REGISTER_KERNEL("et_copy::_h2d_copy.out", identity_copy_kernel<IdentityCopy::kHostToDevice>);

}  // namespace ember
