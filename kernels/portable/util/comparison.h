// Shared bodies of the comparison kernels (eq, ne, lt, le, gt, ge), each of
// which has a Tensor_out and a Scalar_out overload:
//   aten::<op>.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
//   aten::<op>.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// Operands are compared in their promoted type; the 0/1 result is cast to
// out's dtype (usually Bool). `Cmp` is a functor with a templated
// `bool operator()(T, T)`.
#pragma once

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

namespace detail {

template <typename Cmp>
void run_comparison(KernelArgs& args, Tensor self, Tensor other, Tensor out,
                    ScalarType result) {
  ElementwisePlan plan;
  if (!binary_out_prologue(args, self, other, out, ScalarType::Bool, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, bool>(plan, self, other, out,
                                [](C x, C y) { return Cmp{}(x, y); });
  });
}

}  // namespace detail

template <typename Cmp>
void comparison_tensor_kernel(KernelContext& ctx, Span<EValue*> args,
                              const char* name) {
  KernelArgs a(ctx, args, name, 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  detail::run_comparison<Cmp>(a, self, other, out, result);
}

template <typename Cmp>
void comparison_scalar_kernel(KernelContext& ctx, Span<EValue*> args,
                              const char* name) {
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
  with_scalar_operand(a, other, result, [&](Tensor o) {
    detail::run_comparison<Cmp>(a, self, o, out, result);
  });
}

}  // namespace ember
