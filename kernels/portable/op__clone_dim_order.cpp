// dim_order_ops::_clone_dim_order.out(Tensor self, *,
//     bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
// What the exporter emits for clone/contiguous: copies self into out (same
// dtype), converting layout to out's dim order. A given dim_order must
// match out's (memory planning gave out that order).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/memory_format.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void clone_dim_order_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "dim_order_ops::_clone_dim_order.out", 5);
  const Tensor self = a.tensor(0);
  (void)a.bool_value(1);
  const Optional<Span<int64_t>> dim_order = a.optional_int_list(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (!check_out_dim_order(a, dim_order, out) || !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("dim_order_ops::_clone_dim_order.out",
                      clone_dim_order_out_boxed);

}  // namespace ember
