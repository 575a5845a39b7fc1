// aten::where.self_out(Tensor condition, Tensor self, Tensor other, *,
//                      Tensor(a!) out)
// out = condition ? self : other, all three broadcast together; self and
// other meet in their promoted type. The condition must be Bool (or Byte,
// which PyTorch still accepts).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void where_self_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::where.self_out", 5);
  const Tensor cond = a.tensor(0), self = a.tensor(1), other = a.tensor(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (cond.scalar_type() != ScalarType::Bool &&
      cond.scalar_type() != ScalarType::Byte) {
    a.fail(Error::InvalidArgument, "condition must be Bool, got %s",
           scalar_type_name(cond.scalar_type()));
    return;
  }
  ScalarType result;
  if (!result_type(self, other, &result)) {
    fail_result_type(a, self.scalar_type(), other.scalar_type());
    return;
  }
  if (!check_supported_dtype(a, out, "out")) {
    return;
  }
  if (!can_cast(result, out.scalar_type())) {
    a.fail(Error::InvalidArgument, "result type %s cannot be cast to out dtype %s",
           scalar_type_name(result), scalar_type_name(out.scalar_type()));
    return;
  }
  const Tensor inputs[3] = {cond, self, other};
  Shape shape;
  ElementwisePlan plan;
  if (!broadcast_shapes(a, inputs, 3, &shape) ||
      !resize_out(a, out, shape.span()) ||
      !make_elementwise_plan(a, out, inputs, 3, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ternary_elementwise<bool, C, C>(plan, cond, self, other, out,
                                    [](bool c, C x, C y) { return c ? x : y; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::where.self_out", where_self_out_boxed);

}  // namespace ember
