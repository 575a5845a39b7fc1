#include "kernels/portable/util/arithmetic.h"

#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/type_promotion.h"

namespace ember {

namespace {

bool check_out_dtype(KernelArgs& args, Tensor out, ScalarType result) {
  if (!check_supported_dtype(args, out, "out")) {
    return false;
  }
  if (!can_cast(result, out.scalar_type())) {
    return args.fail(Error::InvalidArgument,
                     "result type %s cannot be cast to out dtype %s",
                     scalar_type_name(result),
                     scalar_type_name(out.scalar_type()));
  }
  return true;
}

}  // namespace

// Prepared calls (KernelArgs::prepared()) skip the dtype checks and the
// sizing: Prepare ran them on these very shapes and dtypes, and stopped
// here.
bool binary_out_prologue(KernelArgs& args, Tensor a, Tensor b, Tensor out,
                         ScalarType result, ElementwisePlan* plan) {
  const Tensor inputs[2] = {a, b};
  if (!args.prepared()) {
    if (!check_supported_dtype(args, a, "self") || !check_supported_dtype(args, b, "other") ||
        !check_out_dtype(args, out, result)) {
      return false;
    }
    Shape shape;
    if (!broadcast_shapes(args, inputs, 2, &shape) || !resize_out(args, out, shape.span())) {
      return false;
    }
    if (args.preparing()) {
      return make_elementwise_plan(args, out, inputs, 2, plan) && args.prepared_stop();
    }
  }
  return make_elementwise_plan(args, out, inputs, 2, plan);
}

bool unary_out_prologue(KernelArgs& args, Tensor in, Tensor out,
                        ScalarType result, ElementwisePlan* plan) {
  if (!args.prepared()) {
    if (!check_supported_dtype(args, in, "self") || !check_out_dtype(args, out, result) ||
        !resize_out(args, out, in.sizes())) {
      return false;
    }
    if (args.preparing()) {
      return make_elementwise_plan(args, out, &in, 1, plan) && args.prepared_stop();
    }
  }
  return make_elementwise_plan(args, out, &in, 1, plan);
}

bool check_alpha(KernelArgs& args, const Scalar& alpha, ScalarType result) {
  if (alpha.is_bool() && result != ScalarType::Bool) {
    return args.fail(Error::InvalidArgument,
                     "a Bool alpha is only supported for Bool results (result "
                     "is %s)",
                     scalar_type_name(result));
  }
  if (alpha.is_floating() && !is_floating_type(result)) {
    return args.fail(Error::InvalidArgument,
                     "alpha must not be a floating-point number for an "
                     "integral result (%s)",
                     scalar_type_name(result));
  }
  return true;
}

bool fail_result_type(KernelArgs& args, ScalarType a, ScalarType b) {
  return args.fail(Error::InvalidArgument,
                   "unsupported operand dtypes %s and %s", scalar_type_name(a),
                   scalar_type_name(b));
}

bool operand_result_type(KernelArgs& args, Tensor self, Tensor other, ScalarType* result) {
  return result_type(self, other, result) ||
         fail_result_type(args, self.scalar_type(), other.scalar_type());
}

bool operand_result_type(KernelArgs& args, Tensor self, const Scalar& other, ScalarType* result) {
  return result_type(self, other, result) ||
         fail_result_type(args, self.scalar_type(), scalar_dtype(other));
}

}  // namespace ember
