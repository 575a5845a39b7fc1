// Shared bodies of the one-input math kernels.
//
// float_unary_kernel(): aten::<op>.out(Tensor self, *, Tensor(a!) out) for
// ops that always produce floating results (exp, log, sin, sqrt, sigmoid,
// erf, ...). Bool and integer inputs compute in Float, like PyTorch
// ("int to float" promotion); Half and BFloat16 compute in float and are
// rounded on store; Double computes in double. `op` is a generic callable
// `C op(C)` instantiated for C = float and double only.
//
// float_unary_run(): the same after the arguments were unpacked (for ops
// with extra arguments, such as gelu or logit).
//
// same_type_unary_kernel<kAllowBool>(): aten::<op>.out(Tensor self, *,
// Tensor(a!) out) for ops whose result has self's dtype (neg, abs, floor,
// sign, ...). `op` is instantiated for every compute type (Bool only when
// kAllowBool; Half and BFloat16 compute in float). `what` names the op in
// the Bool refusal.
//
// float_predicate_kernel(): aten::<op>.out(Tensor self, *, Tensor(a!) out)
// for the floating-point class tests (isinf, isnan): out = pred(x) as 0/1
// in out's dtype (Bool for the functional op); `pred` is a generic
// callable instantiated for float and double; integer and Bool inputs give
// all false.
//
// scalar_cast_to(): converts an activation parameter (hardtanh bounds,
// masked_fill value) to the element type the way Scalar::to<T>() does:
// floating values truncate toward zero for integral types; a value outside
// the type's range (or NaN/inf for integers) is an error.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/math/vmath.h"
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/math_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// Float for Bool and integer inputs, the input dtype otherwise.
inline ScalarType float_result_type(ScalarType in) {
  return is_floating_type(in) ? in : ScalarType::Float;
}

// A vectorized Float kernel of the kernel maths library (kernels/math/
// vmath.h) that float_unary_run uses instead of `op` when self and out
// are both Float and dense; null: none.
using FloatVectorFn = void (*)(size_t n, const float* in, float* out, math::Isa isa);

template <typename Op>
void float_unary_run(KernelArgs& args, Tensor self, Tensor out, Op op,
                     FloatVectorFn fast = nullptr) {
  if (!check_supported_dtype(args, self, "self")) {
    return;
  }
  if (fast != nullptr && self.scalar_type() == ScalarType::Float &&
      out.scalar_type() == ScalarType::Float && self.is_contiguous() && out.is_contiguous()) {
    // The prologue resizes out to self's shape: both dense, same count.
    ElementwisePlan plan;
    if (unary_out_prologue(args, self, out, ScalarType::Float, &plan)) {
      fast(size_t(self.numel()), self.const_data_ptr<float>(), out.mutable_data_ptr<float>(),
           math::best_isa());
    }
    return;
  }
  const ScalarType result = float_result_type(self.scalar_type());
  if (!is_floating_type(out.scalar_type())) {
    args.fail(Error::InvalidArgument,
              "out dtype %s must be a floating type (the result is %s)",
              scalar_type_name(out.scalar_type()), scalar_type_name(result));
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(args, self, out, result, &plan)) {
    return;
  }
  visit_float_or_double_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    unary_elementwise<C, C>(plan, self, out, [op](C x) { return C(op(x)); });
  });
}

template <typename Op>
void float_unary_kernel(KernelContext& ctx, Span<EValue*> args,
                        const char* name, Op op, FloatVectorFn fast = nullptr) {
  KernelArgs a(ctx, args, name, 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  float_unary_run(a, self, out, op, fast);
}

template <bool kAllowBool, typename Op>
void same_type_unary_kernel(KernelContext& ctx, Span<EValue*> args,
                            const char* name, Op op) {
  KernelArgs a(ctx, args, name, 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (!kAllowBool && type == ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "not supported for Bool tensors");
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, type, &plan)) {
    return;
  }
  auto body = [&](auto tag) {
    using C = typename decltype(tag)::type;
    unary_elementwise<C, C>(plan, self, out, [op](C x) { return C(op(x)); });
  };
  if constexpr (kAllowBool) {
    visit_compute_dtype(compute_type_for(type), body);
  } else {
    visit_real_dtype(compute_type_for(type), body);
  }
}

template <typename Pred>
void float_predicate_kernel(KernelContext& ctx, Span<EValue*> args, const char* name,
                            Pred pred) {
  KernelArgs a(ctx, args, name, 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  ElementwisePlan plan;
  if (!a.ok() || !unary_out_prologue(a, self, out, ScalarType::Bool, &plan)) {
    return;
  }
  const bool is_float =
      visit_float_or_double_dtype(compute_type_for(self.scalar_type()), [&](auto tag) {
        using C = typename decltype(tag)::type;
        unary_elementwise<C, bool>(plan, self, out, [pred](C x) { return bool(pred(x)); });
      });
  if (!is_float) {
    unary_elementwise<bool, bool>(plan, self, out, [](bool) { return false; });
  }
}

template <typename C>
bool scalar_cast_to(KernelArgs& args, const Scalar& s, const char* what,
                    C* out) {
  if constexpr (std::is_integral<C>::value && !std::is_same<C, bool>::value) {
    if (s.is_floating()) {
      const double d = s.d;
      // Bounds as doubles: lowest is exact; max + 1 is a power of two.
      const double lo = double(std::numeric_limits<C>::lowest());
      const double hi_excl = 2.0 * double(std::numeric_limits<C>::max() / 2 + 1);
      if (!(d > lo - 1.0 && d < hi_excl)) {
        return args.fail(Error::InvalidArgument,
                         "%s = %g cannot be converted to %s without overflow",
                         what, d, scalar_type_name(scalar_type_of<C>()));
      }
      *out = static_cast<C>(d);
      return true;
    }
  }
  return scalar_to(args, s, what, out);
}

}  // namespace ember
