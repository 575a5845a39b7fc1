// aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
// aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                      Tensor(a!) out)
// out = self - alpha * other. Bool operands are refused, as in PyTorch.
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_sub(KernelArgs& args, Tensor self, Tensor other, const Scalar& alpha,
             Tensor out, ScalarType result) {
  if (self.scalar_type() == ScalarType::Bool ||
      other.scalar_type() == ScalarType::Bool) {
    args.fail(Error::InvalidArgument,
              "subtraction with a Bool operand is not supported; use "
              "logical_xor or bitwise ops");
    return;
  }
  ElementwisePlan plan;
  if (!check_alpha(args, alpha, result) ||
      !binary_out_prologue(args, self, other, out, result, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    C a{};
    if (!scalar_to(args, alpha, "alpha", &a)) {
      return;
    }
    if (a == C(1)) {
      binary_elementwise<C, C>(plan, self, other, out,
                               [](C x, C y) { return sub_values(x, y); });
    } else {
      binary_elementwise<C, C>(plan, self, other, out, [a](C x, C y) {
        return sub_values(x, mul_values(a, y));
      });
    }
  });
}

void sub_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::sub.out", 5);
  const Tensor self = a.tensor(0), other = a.tensor(1);
  const Scalar alpha = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!result_type(self, other, &result)) {
    fail_result_type(a, self.scalar_type(), other.scalar_type());
    return;
  }
  run_sub(a, self, other, alpha, out, result);
}

void sub_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::sub.Scalar_out", 5);
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1), alpha = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (other.is_bool()) {
    a.fail(Error::InvalidArgument, "subtraction of a Bool scalar is not supported");
    return;
  }
  ScalarType result;
  if (!result_type(self, other, &result)) {
    fail_result_type(a, self.scalar_type(), scalar_dtype(other));
    return;
  }
  with_scalar_operand(a, other, result, [&](Tensor o) {
    run_sub(a, self, o, alpha, out, result);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::sub.out", sub_out_boxed);
EMBER_REGISTER_KERNEL("aten::sub.Scalar_out", sub_scalar_out_boxed);

}  // namespace ember
