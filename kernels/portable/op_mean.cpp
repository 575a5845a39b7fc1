// aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *,
//                ScalarType? dtype=None, Tensor(a!) out)
// aten::mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out)
// Mean over `dim` (None or [] = all dims; dtype_out: all dims), accumulated
// in double. out must be floating (as PyTorch requires); a given dtype must
// equal out's. self and out contiguous. An empty reduction gives NaN.
//
// Prepared kernels: Prepared calls skip the dtype and contiguity checks;
// dim, keepdim and dtype are values, checked at every call, and out's shape
// only compared (reduce_prologue).
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_mean(KernelArgs& a, KernelContext& ctx, Tensor self,
              Optional<Span<int64_t>> dims, bool keepdim,
              Optional<int64_t> dtype, Tensor out) {
  if (!a.ok() || (!a.prepared() && !require_floating(a, out, "out"))) {
    return;
  }
  if (dtype.has_value() && dtype.value() != int64_t(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "dtype %lld differs from out dtype %s",
           static_cast<long long>(dtype.value()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan) || !checks_done(a)) {
    return;
  }
  const double count = double(plan.reduce_count);
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, double>(
        a, ctx, plan, self.const_data_ptr<T>(), out, 0.0,
        [](double x, double y) { return x + y; },
        [count](double sum) { return sum / count; });
  });
}

void mean_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mean.out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool keepdim = a.bool_value(2);
  const Optional<int64_t> dtype = a.optional_enum(3);
  const Tensor out = a.tensor(4);
  run_mean(a, ctx, self, dims, keepdim, dtype, out);
}

void mean_dtype_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mean.dtype_out", 4);
  const Tensor self = a.tensor(0);
  const Optional<int64_t> dtype = a.optional_enum(1);
  const Tensor out = a.tensor(2);
  run_mean(a, ctx, self, {}, false, dtype, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::mean.out", mean_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::mean.dtype_out", mean_dtype_out_boxed);

}  // namespace ember
