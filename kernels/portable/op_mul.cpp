// aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// out = self * other, broadcasting, in the promoted type (Bool: and).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_mul(KernelArgs& args, Tensor self, Tensor other, Tensor out,
             ScalarType result) {
  ElementwisePlan plan;
  if (!binary_out_prologue(args, self, other, out, result, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out,
                             [](C x, C y) { return mul_values(x, y); });
  });
}

void mul_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mul.out", 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  run_mul(a, self, other, out, result);
}

void mul_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mul.Scalar_out", 4);
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  with_scalar_operand(a, other, result,
                      [&](Tensor o) { run_mul(a, self, o, out, result); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::mul.out", mul_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::mul.Scalar_out", mul_scalar_out_boxed);

}  // namespace ember
