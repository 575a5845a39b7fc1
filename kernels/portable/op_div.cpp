// aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out)
// True division: integral and Bool operands divide in Float (x / 0 gives
// inf or nan, as in PyTorch).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void div_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::div.out", 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!result_type(self, other, &result)) {
    fail_result_type(a, self.scalar_type(), other.scalar_type());
    return;
  }
  if (!is_floating_type(result)) {
    result = ScalarType::Float;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, result, &plan)) {
    return;
  }
  visit_float_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out,
                             [](C x, C y) { return x / y; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::div.out", div_out_boxed);

}  // namespace ember
