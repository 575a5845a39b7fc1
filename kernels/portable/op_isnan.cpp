// aten::isnan.out(Tensor self, *, Tensor(a!) out)
// out = (self is NaN), written as 0/1 in out's dtype (Bool for the
// functional op). Integer and Bool inputs give all false.
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void isnan_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::isnan.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, ScalarType::Bool, &plan)) {
    return;
  }
  const bool is_float =
      visit_float_or_double_dtype(compute_type_for(self.scalar_type()), [&](auto tag) {
        using C = typename decltype(tag)::type;
        unary_elementwise<C, bool>(plan, self, out,
                                   [](C x) { return bool(x != x); });
      });
  if (!is_float) {
    unary_elementwise<bool, bool>(plan, self, out, [](bool) { return false; });
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::isnan.out", isnan_out_boxed);

}  // namespace ember
