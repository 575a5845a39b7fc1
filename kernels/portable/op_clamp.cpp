// aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *,
//                 Tensor(a!) out)
// aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *,
//                        Tensor(a!) out)
// out = min(max(self, min), max) in the result type of all operands
// (PyTorch's promotion: an int tensor clamped by float bounds is Float).
// NaN in self or in a bound propagates; min > max gives max. At least one
// bound is required; a Bool result is refused. Tensor bounds broadcast
// with self. A Scalar bound outside an integral result's range is refused
// (PyTorch wraps it).
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Lower {
  template <typename C>
  C operator()(C x, C lo) const {
    return max_propagate_nan(x, lo);
  }
};

struct Upper {
  template <typename C>
  C operator()(C x, C hi) const {
    return min_propagate_nan(x, hi);
  }
};

bool check_result(KernelArgs& a, ScalarType result) {
  if (result == ScalarType::Bool) {
    return a.fail(Error::InvalidArgument, "clamp is not supported for Bool");
  }
  return true;
}

// The dtype a Python number of the given kinds contributes.
Scalar promoted_kind(const Optional<Scalar>& lo, const Optional<Scalar>& hi) {
  Scalar s;
  s.kind = Scalar::Kind::Bool;
  for (const Optional<Scalar>* b : {&lo, &hi}) {
    if (!b->has_value()) {
      continue;
    }
    const Scalar::Kind k = b->value().kind;
    if (k == Scalar::Kind::Double ||
        (k == Scalar::Kind::Int && s.kind == Scalar::Kind::Bool)) {
      s.kind = k;
    }
  }
  return s;
}

void clamp_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::clamp.out", 5);
  const Tensor self = a.tensor(0);
  const Optional<Scalar> lo = a.optional_scalar(1), hi = a.optional_scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (!lo.has_value() && !hi.has_value()) {
    a.fail(Error::InvalidArgument, "at least one of min and max must be given");
    return;
  }
  ScalarType result;
  if (!result_type(self, promoted_kind(lo, hi), &result)) {
    fail_result_type(a, self.scalar_type(), self.scalar_type());
    return;
  }
  ElementwisePlan plan;
  if (!check_result(a, result) ||
      !unary_out_prologue(a, self, out, result, &plan)) {
    return;
  }
  visit_real_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    C l = C(0), h = C(0);
    if ((lo.has_value() && !scalar_to(a, lo.value(), "min", &l)) ||
        (hi.has_value() && !scalar_to(a, hi.value(), "max", &h))) {
      return;
    }
    if (lo.has_value() && hi.has_value()) {
      unary_elementwise<C, C>(plan, self, out, [l, h](C x) {
        return min_propagate_nan(max_propagate_nan(x, l), h);
      });
    } else if (lo.has_value()) {
      unary_elementwise<C, C>(plan, self, out,
                              [l](C x) { return max_propagate_nan(x, l); });
    } else {
      unary_elementwise<C, C>(plan, self, out,
                              [h](C x) { return min_propagate_nan(x, h); });
    }
  });
}

void clamp_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::clamp.Tensor_out", 5);
  const Tensor self = a.tensor(0);
  const Optional<Tensor> lo = a.optional_tensor(1), hi = a.optional_tensor(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (!lo.has_value() && !hi.has_value()) {
    a.fail(Error::InvalidArgument, "at least one of min and max must be given");
    return;
  }
  Tensor inputs[3] = {self};
  size_t n = 1;
  if (lo.has_value()) {
    inputs[n++] = lo.value();
  }
  if (hi.has_value()) {
    inputs[n++] = hi.value();
  }
  ScalarType result;
  if (!result_type_of(inputs, n, &result)) {
    a.fail(Error::InvalidArgument, "unsupported operand dtypes");
    return;
  }
  if (!check_result(a, result) || !check_supported_dtype(a, out, "out")) {
    return;
  }
  if (!can_cast(result, out.scalar_type())) {
    a.fail(Error::InvalidArgument, "result type %s cannot be cast to out dtype %s",
           scalar_type_name(result), scalar_type_name(out.scalar_type()));
    return;
  }
  Shape shape;
  ElementwisePlan plan;
  if (!broadcast_shapes(a, inputs, n, &shape) || !resize_out(a, out, shape.span()) ||
      !make_elementwise_plan(a, out, inputs, n, &plan)) {
    return;
  }
  if (a.preparing()) {
    a.prepared_stop();
    return;
  }
  visit_real_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    if (n == 3) {
      ternary_elementwise<C, C, C>(plan, self, inputs[1], inputs[2], out,
                                   [](C x, C l, C h) {
                                     return min_propagate_nan(max_propagate_nan(x, l), h);
                                   });
    } else if (lo.has_value()) {
      binary_elementwise<C, C>(plan, self, inputs[1], out, Lower{});
    } else {
      binary_elementwise<C, C>(plan, self, inputs[1], out, Upper{});
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::clamp.out", clamp_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::clamp.Tensor_out", clamp_tensor_out_boxed);

}  // namespace ember
