// dim_order_ops::_to_dim_order_copy.out(Tensor self, *,
//     bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
// Copies self into out, converting dtype and layout. out already carries
// the requested dim order (memory planning gave it one); a given dim_order
// must match it.
//
// A prepared kernel: Prepared calls skip the dtype checks and the resize
// (out takes self's static shape); a given dim_order, an Int list, is
// checked against out's in every mode.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/memory_format.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void to_dim_order_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "dim_order_ops::_to_dim_order_copy.out", 5);
  const Tensor self = a.tensor(0);
  (void)a.bool_value(1);
  const Optional<Span<int64_t>> dim_order = a.optional_int_list(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || (!a.prepared() && (!check_supported_dtype(a, self, "self") ||
                                     !check_supported_dtype(a, out, "out")))) {
    return;
  }
  if (!check_out_dim_order(a, dim_order, out)) {
    return;
  }
  if (!a.prepared()) {
    if (!resize_out(a, out, self.sizes())) {
      return;
    }
    if (a.preparing()) {
      a.prepared_stop();
      return;
    }
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("dim_order_ops::_to_dim_order_copy.out",
                      to_dim_order_copy_out_boxed);

}  // namespace ember
