// aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *,
//                             Tensor(a!) out)
// aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *,
//                             Tensor(a!) out)
// aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out)
// out = self ** exponent in the promoted type. Floats use std::pow (Half
// and BFloat16 in float); integers multiply by squaring with wrap-around,
// and a negative integer exponent gives 1, -1 or 0 (PyTorch's rule; a
// negative Scalar exponent with an integral result is an error, as in
// PyTorch). A Bool result is refused.
#include <cmath>

#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_pow(KernelArgs& a, Tensor base, Tensor exponent, Tensor out,
             ScalarType result) {
  if (result == ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "pow is not supported for a Bool result");
    return;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(a, base, exponent, out, result, &plan)) {
    return;
  }
  visit_real_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, base, exponent, out,
                             [](C x, C y) { return pow_value(x, y); });
  });
}

// PyTorch's pow(Tensor, Scalar) for floating results rewrites common
// exponents (sqrt for 0.5, so pow(-inf, 0.5) is NaN and pow(-0.0, 0.5) is
// -0.0, unlike std::pow); the rest go through run_pow.
bool run_pow_special_exponent(KernelArgs& a, Tensor self, Tensor exponent,
                              Tensor out, ScalarType result) {
  bool handled = false;
  visit_float_or_double_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C e = *exponent.const_data_ptr<C>();
    auto run = [&](auto op) {
      ElementwisePlan plan;
      handled = true;
      if (unary_out_prologue(a, self, out, result, &plan)) {
        unary_elementwise<C, C>(plan, self, out, op);
      }
    };
    if (e == C(0.5)) {
      run([](C x) { return std::sqrt(x); });
    } else if (e == C(-0.5)) {
      run([](C x) { return C(1) / std::sqrt(x); });
    } else if (e == C(2)) {
      run([](C x) { return x * x; });
    } else if (e == C(3)) {
      run([](C x) { return x * x * x; });
    } else if (e == C(-1)) {
      run([](C x) { return C(1) / x; });
    } else if (e == C(-2)) {
      run([](C x) { return C(1) / (x * x); });
    }
  });
  return handled;
}

void pow_tensor_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::pow.Tensor_Tensor_out", run_pow);
}

void pow_tensor_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_scalar_kernel(
      ctx, args, "aten::pow.Tensor_Scalar_out",
      [](KernelArgs& a, Tensor self, Tensor exponent, Tensor out,
         ScalarType result) {
        if (is_integral_type(result, /*include_bool=*/false)) {
          // The exponent is a zero-dim tensor of the result's type.
          bool negative = false;
          visit_integral_dtype(result, [&](auto tag) {
            using C = typename decltype(tag)::type;
            negative = *exponent.const_data_ptr<C>() < C(0);
          });
          if (negative) {
            a.fail(Error::InvalidArgument,
                   "integers to negative integer powers are not allowed");
            return;
          }
        }
        if (!run_pow_special_exponent(a, self, exponent, out, result)) {
          run_pow(a, self, exponent, out, result);
        }
      });
}

void pow_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::pow.Scalar_out", 4);
  const Scalar self = a.scalar(0);
  const Tensor exponent = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!result_type(exponent, self, &result)) {
    fail_result_type(a, scalar_dtype(self), exponent.scalar_type());
    return;
  }
  with_scalar_operand(a, self, result, [&](Tensor base) {
    run_pow(a, base, exponent, out, result);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::pow.Tensor_Tensor_out", pow_tensor_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::pow.Tensor_Scalar_out", pow_tensor_scalar_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::pow.Scalar_out", pow_scalar_out_boxed);

}  // namespace ember
