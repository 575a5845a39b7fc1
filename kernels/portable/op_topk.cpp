// aten::topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True,
//     bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices)
//     -> (Tensor(a!) values, Tensor(b!) indices)
// The k largest (or smallest) entries along dim, always in sorted order
// (which `sorted=False` permits); NaN counts as the largest value, ties go
// to the lower position. Boxed like sort.values: 8 or 9 values.
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/sort_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void topk_values_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 8 ? 8 : 9;
  KernelArgs a(ctx, args, "aten::topk.values", count);
  const Tensor self = a.tensor(0);
  const int64_t k = a.int_value(1);
  const int64_t dim = a.int_value(2);
  const bool largest = a.bool_value(3);
  (void)a.bool_value(4);
  const Tensor values = a.tensor(5);
  const Tensor indices = a.tensor(6);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, values) ||
      !normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  if (indices.scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "indices must be Long, got %s",
           scalar_type_name(indices.scalar_type()));
    return;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[d];
  if (k < 0 || k > n) {
    a.fail(Error::InvalidArgument, "k (%lld) is out of range for dim %zu of size %lld",
           static_cast<long long>(k), d, static_cast<long long>(n));
    return;
  }
  Shape shape = shape_of(self);
  if (shape.dim > 0) {
    shape.sizes[d] = SizesType(k);
  }
  if (!resize_out(a, values, shape.span()) || !resize_out(a, indices, shape.span())) {
    return;
  }
  (void)sort_slices(a, ctx, self, d, k, largest, true, values, indices);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::topk.values", topk_values_boxed);

}  // namespace ember
