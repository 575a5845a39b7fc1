// aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out)
// aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *,
//                    ScalarType? dtype=None, Tensor(a!) out)
// Product over all dims or one dim. Accumulates in double for a floating
// out and in int64 (wrapping) otherwise; an empty product is 1. A given
// dtype must equal out's. self and out contiguous.
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename Acc>
void run_prod(KernelArgs& a, KernelContext& ctx, const ReducePlan& plan,
              Tensor self, Tensor out) {
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, Acc>(
        a, ctx, plan, self.const_data_ptr<T>(), out, Acc(1),
        [](Acc x, Acc y) { return mul_values(x, y); }, [](Acc v) { return v; });
  });
}

void prod(KernelArgs& a, KernelContext& ctx, Tensor self,
          Optional<Span<int64_t>> dims, bool keepdim, Optional<int64_t> dtype,
          Tensor out) {
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
    a.fail(Error::InvalidArgument, "cannot multiply %s into out dtype %s",
           scalar_type_name(self.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan)) {
    return;
  }
  if (is_floating_type(out.scalar_type())) {
    run_prod<double>(a, ctx, plan, self, out);
  } else {
    run_prod<int64_t>(a, ctx, plan, self, out);
  }
}

void prod_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::prod.out", 4);
  const Tensor self = a.tensor(0);
  const Optional<int64_t> dtype = a.optional_enum(1);
  const Tensor out = a.tensor(2);
  prod(a, ctx, self, {}, false, dtype, out);
}

void prod_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::prod.int_out", 6);
  const Tensor self = a.tensor(0);
  int64_t dim = a.int_value(1);
  const bool keepdim = a.bool_value(2);
  const Optional<int64_t> dtype = a.optional_enum(3);
  const Tensor out = a.tensor(4);
  prod(a, ctx, self, Optional<Span<int64_t>>(Span<int64_t>(&dim, 1)), keepdim,
       dtype, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::prod.out", prod_out_boxed);
EMBER_REGISTER_KERNEL("aten::prod.int_out", prod_int_out_boxed);

}  // namespace ember
