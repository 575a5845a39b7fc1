// aten::logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out)
#include "kernels/portable/util/logical.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct And {
  bool operator()(bool a, bool b) const { return a && b; }
};

void logical_and_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  logical_binary_kernel<And>(ctx, args, "aten::logical_and.out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logical_and.out", logical_and_out_boxed);

}  // namespace ember
