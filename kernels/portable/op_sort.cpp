// aten::sort.values(Tensor self, int dim=-1, bool descending=False, *,
//     Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))
// Sorts along dim (stably: ties keep their order; NaN sorts above every
// number). Boxed: [self, dim, descending, values, indices] then either one
// returned (values, indices) list, as the exporter writes it, or the two
// tensors separately.
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/sort_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sort_values_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 6 ? 6 : 7;
  KernelArgs a(ctx, args, "aten::sort.values", count);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const bool descending = a.bool_value(2);
  const Tensor values = a.tensor(3);
  const Tensor indices = a.tensor(4);
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
  if (!resize_out(a, values, self.sizes()) || !resize_out(a, indices, self.sizes())) {
    return;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[d];
  (void)sort_slices(a, ctx, self, d, n, descending, false, values, indices);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::sort.values", sort_values_boxed);

}  // namespace ember
