// aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *,
//                       ScalarType? dtype=None, Tensor(a!) out)
// Sums over `dim` (None or [] = all dims). Accumulates in double for a
// floating out and in int64 (wrapping) otherwise; the total is cast to out's
// dtype. A given dtype must equal out's. self and out must be contiguous.
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename Acc>
void run_sum(KernelArgs& a, KernelContext& ctx, const ReducePlan& plan,
             Tensor self, Tensor out) {
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, Acc>(
        a, ctx, plan, self.const_data_ptr<T>(), out, Acc(0),
        [](Acc x, Acc y) { return add_values(x, y); }, [](Acc v) { return v; });
  });
}

void sum_intlist_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::sum.IntList_out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool keepdim = a.bool_value(2);
  const Optional<int64_t> dtype = a.optional_enum(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  if (dtype.has_value() && dtype.value() != int64_t(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "dtype %lld differs from out dtype %s",
           static_cast<long long>(dtype.value()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  if (!can_cast(self.scalar_type(), out.scalar_type())) {
    a.fail(Error::InvalidArgument, "cannot sum %s into out dtype %s",
           scalar_type_name(self.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan)) {
    return;
  }
  if (is_floating_type(out.scalar_type())) {
    run_sum<double>(a, ctx, plan, self, out);
  } else {
    run_sum<int64_t>(a, ctx, plan, self, out);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::sum.IntList_out", sum_intlist_out_boxed);

}  // namespace ember
