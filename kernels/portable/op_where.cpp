// aten::where.self_out(Tensor condition, Tensor self, Tensor other, *,
//                      Tensor(a!) out)
// out = condition ? self : other, all three broadcast together; self and
// other meet in their promoted type. The condition must be Bool (or Byte,
// which PyTorch still accepts).
//
// A prepared kernel: Prepared calls skip the dtype checks and the
// broadcast and resize (every tensor is static, out was sized at load).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The checks and sizing Prepared calls skip. `typed`: result_type()
// found `result`, the promoted type of self and other.
bool check_where(KernelArgs& a, const Tensor (&inputs)[3], Tensor out, bool typed,
                 ScalarType result) {
  const Tensor cond = inputs[0], self = inputs[1], other = inputs[2];
  if (cond.scalar_type() != ScalarType::Bool && cond.scalar_type() != ScalarType::Byte) {
    return a.fail(Error::InvalidArgument, "condition must be Bool, got %s",
                  scalar_type_name(cond.scalar_type()));
  }
  if (!typed) {
    fail_result_type(a, self.scalar_type(), other.scalar_type());
    return false;
  }
  if (!check_supported_dtype(a, out, "out")) {
    return false;
  }
  if (!can_cast(result, out.scalar_type())) {
    return a.fail(Error::InvalidArgument, "result type %s cannot be cast to out dtype %s",
                  scalar_type_name(result), scalar_type_name(out.scalar_type()));
  }
  Shape shape;
  return broadcast_shapes(a, inputs, 3, &shape) && resize_out(a, out, shape.span());
}

void where_self_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::where.self_out", 5);
  const Tensor cond = a.tensor(0), self = a.tensor(1), other = a.tensor(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  const Tensor inputs[3] = {cond, self, other};
  ScalarType result = ScalarType::Bool;
  const bool typed = result_type(self, other, &result);
  ElementwisePlan plan;
  if ((!a.prepared() && !check_where(a, inputs, out, typed, result)) ||
      !make_elementwise_plan(a, out, inputs, 3, &plan) || !checks_done(a)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ternary_elementwise<bool, C, C>(plan, cond, self, other, out,
                                    [](bool c, C x, C y) { return c ? x : y; });
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::where.self_out", where_self_out_boxed);

}  // namespace ember
