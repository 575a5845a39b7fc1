// Shared bodies of the two-input math kernels (div modes, remainder, fmod,
// floor_divide, pow, maximum/minimum, bitwise ops, clamp).
//
// binary_tensor_kernel() / binary_scalar_kernel(): unpack
//   aten::<op>.<Tensor overload>(Tensor self, Tensor other, *, Tensor(a!) out)
//   aten::<op>.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// compute PyTorch's result dtype and call run(args, self, other, out,
// result) where `other` is a tensor (a Scalar is wrapped as a zero-dim
// tensor of the result's compute type; see with_scalar_operand()).
//
// run_division_like(): out = op(self, other) broadcasting, for ops that
// divide: Bool results are refused, integral results call int_op(x, y)
// with y != 0 and fail the kernel ("integer division by zero") if any
// divisor is zero, floating results call float_op(x, y) (Half and
// BFloat16 in float). Both ops are generic callables.
//
// run_floating_binary(): out = op(self, other) broadcasting, for ops whose
// result is floating (true division, atan2; the caller maps an integral or
// Bool promotion to Float with float_result_type()): computed in the
// result's compute type (float for Half and BFloat16, rounded on store).
//
// result_type_of(): torch.result_type over several tensors (dimensioned
// tensors over zero-dim ones unless of a higher category).
#pragma once

#include <cstddef>

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/math_util.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

bool result_type_of(const Tensor* tensors, size_t count, ScalarType* out);

template <typename Run>
void binary_tensor_kernel(KernelContext& ctx, Span<EValue*> args,
                          const char* name, Run run) {
  KernelArgs a(ctx, args, name, 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  run(a, self, other, out, result);
}

template <typename Run>
void binary_scalar_kernel(KernelContext& ctx, Span<EValue*> args,
                          const char* name, Run run) {
  KernelArgs a(ctx, args, name, 4);
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
                      [&](Tensor o) { run(a, self, o, out, result); });
}

template <typename IntOp, typename FloatOp>
void run_division_like(KernelArgs& args, Tensor self, Tensor other, Tensor out,
                       ScalarType result, IntOp int_op, FloatOp float_op) {
  if (result == ScalarType::Bool) {
    args.fail(Error::InvalidArgument, "not supported for Bool operands");
    return;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(args, self, other, out, result, &plan)) {
    return;
  }
  bool zero_divisor = false;
  visit_real_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    if constexpr (is_int_v<C>) {
      // Integer division does not vectorize; the zero test costs little.
      binary_elementwise<C, C>(plan, self, other, out,
                               [&zero_divisor, int_op](C x, C y) {
                                 if (y == C(0)) {
                                   zero_divisor = true;
                                   return C(0);
                                 }
                                 return C(int_op(x, y));
                               });
    } else {
      binary_elementwise<C, C>(plan, self, other, out,
                               [float_op](C x, C y) { return C(float_op(x, y)); });
    }
  });
  if (zero_divisor) {
    args.fail(Error::InvalidArgument, "integer division by zero");
  }
}

template <typename Op>
void run_floating_binary(KernelArgs& args, Tensor self, Tensor other, Tensor out,
                         ScalarType result, Op op) {
  ElementwisePlan plan;
  if (!binary_out_prologue(args, self, other, out, result, &plan)) {
    return;
  }
  visit_float_or_double_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out, [op](C x, C y) { return C(op(x, y)); });
  });
}

}  // namespace ember
