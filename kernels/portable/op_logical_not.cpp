// aten::logical_not.out(Tensor self, *, Tensor(a!) out)
// out = (self == 0), cast to out's dtype.
#include "kernels/portable/util/arithmetic.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void logical_not_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::logical_not.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, ScalarType::Bool, &plan)) {
    return;
  }
  unary_elementwise<bool, bool>(plan, self, out, [](bool x) { return !x; });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logical_not.out", logical_not_out_boxed);

}  // namespace ember
