// aten::logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out)
#include "kernels/portable/util/logical.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Or {
  bool operator()(bool a, bool b) const { return a || b; }
};

void logical_or_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  logical_binary_kernel<Or>(ctx, args, "aten::logical_or.out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logical_or.out", logical_or_out_boxed);

}  // namespace ember
