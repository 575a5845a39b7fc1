// The shared body of add, sub and rsub: each operator's file registers
// these kernels with its own template arguments, so only its own form is
// instantiated there:
//   add.out / sub.out(Tensor self, Tensor other, *, Scalar alpha=1,
//                     Tensor(a!) out)
//   add.Scalar_out / sub.Scalar_out / rsub.Scalar_out(Tensor self,
//                     Scalar other, Scalar alpha=1, *, Tensor(a!) out)
// add: self + alpha * other; sub: self - alpha * other; rsub: other -
// alpha * self. Broadcasting, computed in PyTorch's promoted type (integers
// wrap). Subtraction refuses Bool operands, as PyTorch does; alpha follows
// check_alpha() (arithmetic.h).
#pragma once

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// out = x + alpha * y (kSub: x - alpha * y) in the compute type of `result`.
template <bool kSub>
void add_sub_run(KernelArgs& args, Tensor x, Tensor y, const Scalar& alpha, Tensor out,
                 ScalarType result) {
  if (kSub && (x.scalar_type() == ScalarType::Bool || y.scalar_type() == ScalarType::Bool)) {
    args.fail(Error::InvalidArgument,
              "subtraction with a Bool operand is not supported; use logical_xor or bitwise ops");
    return;
  }
  ElementwisePlan plan;
  if (!check_alpha(args, alpha, result) || !binary_out_prologue(args, x, y, out, result, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    auto combine = [](C l, C r) { return kSub ? sub_values(l, r) : add_values(l, r); };
    C a{};
    if (!scalar_to(args, alpha, "alpha", &a)) {
      return;
    }
    if (a == C(1)) {
      binary_elementwise<C, C>(plan, x, y, out, combine);
    } else {
      binary_elementwise<C, C>(plan, x, y, out,
                               [a, combine](C l, C r) { return combine(l, mul_values(a, r)); });
    }
  });
}

template <bool kSub>
void add_sub_tensor_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kSub ? "aten::sub.out" : "aten::add.out", 5);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(3);
  const Scalar alpha = a.scalar(2);
  ScalarType result;
  if (!a.ok() || !operand_result_type(a, self, other, &result)) {
    return;
  }
  add_sub_run<kSub>(a, self, other, alpha, out, result);
}

// kReverse (rsub): other - alpha * self.
template <bool kSub, bool kReverse = false>
void add_sub_scalar_kernel(KernelContext& ctx, Span<EValue*> args) {
  static_assert(kSub || !kReverse, "only subtraction has a reversed form");
  const char* name = kReverse ? "aten::rsub.Scalar_out"
                     : kSub   ? "aten::sub.Scalar_out"
                              : "aten::add.Scalar_out";
  KernelArgs a(ctx, args, name, 5);
  const Tensor self = a.tensor(0), out = a.tensor(3);
  const Scalar other = a.scalar(1), alpha = a.scalar(2);
  if (!a.ok()) {
    return;
  }
  if (kSub && other.is_bool()) {
    a.fail(Error::InvalidArgument, "subtraction with a Bool operand is not supported");
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  with_scalar_operand(a, other, result, [&](Tensor o) {
    if (kReverse) {
      add_sub_run<kSub>(a, o, self, alpha, out, result);
    } else {
      add_sub_run<kSub>(a, self, o, alpha, out, result);
    }
  });
}

}  // namespace ember
