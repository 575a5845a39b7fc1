// aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                       Tensor(a!) out)
// out = other - alpha * self in the promoted type (integers wrap). Bool
// operands are refused, as for sub.
#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void rsub_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::rsub.Scalar_out", 5);
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1), alpha = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (self.scalar_type() == ScalarType::Bool || other.is_bool()) {
    a.fail(Error::InvalidArgument,
           "subtraction with a Bool operand is not supported");
    return;
  }
  ScalarType result;
  if (!result_type(self, other, &result)) {
    fail_result_type(a, self.scalar_type(), scalar_dtype(other));
    return;
  }
  if (!check_alpha(a, alpha, result)) {
    return;
  }
  with_scalar_operand(a, other, result, [&](Tensor o) {
    ElementwisePlan plan;
    if (!binary_out_prologue(a, self, o, out, result, &plan)) {
      return;
    }
    visit_real_dtype(compute_type_for(result), [&](auto tag) {
      using C = typename decltype(tag)::type;
      C al{};
      if (!scalar_to(a, alpha, "alpha", &al)) {
        return;
      }
      binary_elementwise<C, C>(plan, self, o, out, [al](C x, C y) {
        return sub_values(y, mul_values(al, x));
      });
    });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::rsub.Scalar_out", rsub_scalar_out_boxed);

}  // namespace ember
