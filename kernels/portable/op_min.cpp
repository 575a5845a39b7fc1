// aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *,
//     Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)
// aten::min.unary_out(Tensor self, *, Tensor(a!) out)
// dim_min: the minimum along `dim` and the index of its first occurrence
// (a NaN wins: the first NaN). Boxed args: [self, dim, keepdim, values,
// indices] then the return, one tuple value (6 args) or the two tensors
// (7). unary_out: the minimum of all elements (NaN propagates); an empty
// input is refused. Contiguous tensors.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void min_dim_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 6 ? 6 : 7;
  KernelArgs a(ctx, args, "aten::min.dim_min", count);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const bool keepdim = a.bool_value(2);
  const Tensor outs[2] = {a.tensor(3), a.tensor(4)};
  if (!a.ok() || !check_same_dtype(a, self, outs[0])) {
    return;
  }
  if (outs[1].scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "indices must be Long, got %s",
           scalar_type_name(outs[1].scalar_type()));
    return;
  }
  DimSplit split;
  if (!dim_prologue(a, self, Optional<int64_t>(dim), keepdim, outs, 2, true,
                    &split)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    arg_reduce<T, false>(split, self.const_data_ptr<T>(),
                      outs[0].mutable_data_ptr<T>(),
                      outs[1].mutable_data_ptr<int64_t>());
  });
}

void min_unary_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::min.unary_out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, {}, false, out, true, &plan)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    (void)reduce_contiguous<T, C>(
        a, ctx, plan, self.const_data_ptr<T>(), out, highest_value<C>(),
        [](C x, C y) { return min_propagate_nan(x, y); }, [](C v) { return v; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::min.dim_min", min_dim_boxed);
EMBER_REGISTER_KERNEL("aten::min.unary_out", min_unary_out_boxed);

}  // namespace ember
