// The shared body of sum and prod (each operator's file registers its own
// kernels and calls sum_prod_run<kProd> after unpacking its arguments; only
// its own fold is instantiated there).
//
// Folds over `dims` (None or [] = all dims; see reduce_util.h) with + or *.
// Accumulates in double for a floating out and in int64 (wrapping)
// otherwise, then casts to out's dtype; an empty sum is 0, an empty product
// 1. A given dtype must equal out's, and self's dtype must cast to out's.
// self and out contiguous.
//
// The kernels are prepared (docs/custom_kernels.md): Prepared calls skip
// the dtype and contiguity checks; dim, keepdim and dtype are values,
// checked at every call, and out's shape only compared (reduce_prologue).
#pragma once

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

template <bool kProd, typename Acc>
void sum_prod_fold(KernelArgs& a, KernelContext& ctx, const ReducePlan& plan, Tensor self,
                   Tensor out) {
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, Acc>(
        a, ctx, plan, self.const_data_ptr<T>(), out, Acc(kProd ? 1 : 0),
        [](Acc x, Acc y) { return kProd ? mul_values(x, y) : add_values(x, y); },
        [](Acc v) { return v; });
  });
}

template <bool kProd>
void sum_prod_run(KernelArgs& a, KernelContext& ctx, Tensor self, Optional<Span<int64_t>> dims,
                  bool keepdim, Optional<int64_t> dtype, Tensor out) {
  if (!a.ok()) {
    return;
  }
  if (dtype.has_value() && dtype.value() != int64_t(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "dtype %lld differs from out dtype %s",
           static_cast<long long>(dtype.value()), scalar_type_name(out.scalar_type()));
    return;
  }
  if (!a.prepared() && !can_cast(self.scalar_type(), out.scalar_type())) {
    a.fail(Error::InvalidArgument, "cannot %s %s into out dtype %s", kProd ? "multiply" : "sum",
           scalar_type_name(self.scalar_type()), scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan) || !checks_done(a)) {
    return;
  }
  if (is_floating_type(out.scalar_type())) {
    sum_prod_fold<kProd, double>(a, ctx, plan, self, out);
  } else {
    sum_prod_fold<kProd, int64_t>(a, ctx, plan, self, out);
  }
}

}  // namespace ember
