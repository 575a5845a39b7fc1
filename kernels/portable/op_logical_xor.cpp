// aten::logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out)
// out = bool(self) != bool(other) (see util/logical.h).
#include "kernels/portable/util/logical.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Xor {
  bool operator()(bool a, bool b) const { return a != b; }
};

void logical_xor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  logical_binary_kernel<Xor>(ctx, args, "aten::logical_xor.out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logical_xor.out", logical_xor_out_boxed);

}  // namespace ember
