// aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None,
//                 Tensor(a!) out)
// dim_order_ops::_empty_dim_order.out(int[] size, *, int[]? dim_order=None,
//                                     Tensor(a!) out)
// Resize out to `size`; contents are unspecified (left as they are). The
// exporter emits the dim-order form for torch.empty.
#include "kernels/portable/util/memory_format.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void empty_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::empty.out", 4);
  const Span<int64_t> size = a.int_list(0);
  const Optional<int64_t> format = a.optional_enum(1);
  const Tensor out = a.tensor(2);
  Shape shape;
  if (!a.ok() || !check_memory_format(a, format) ||
      !to_shape(a, size, "size", &shape)) {
    return;
  }
  (void)resize_out(a, out, shape.span());
}

void empty_dim_order_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "dim_order_ops::_empty_dim_order.out", 4);
  const Span<int64_t> size = a.int_list(0);
  const Optional<Span<int64_t>> dim_order = a.optional_int_list(1);
  const Tensor out = a.tensor(2);
  Shape shape;
  if (!a.ok() || !to_shape(a, size, "size", &shape)) {
    return;
  }
  if (dim_order.has_value()) {
    const Span<int64_t> order = dim_order.value();
    bool same = order.size() == out.dim();
    for (size_t i = 0; same && i < order.size(); ++i) {
      same = order[i] == int64_t(out.dim_order()[i]);
    }
    if (!same) {
      a.fail(Error::InvalidArgument,
             "dim_order argument (%zu entries) does not match out's dim order",
             order.size());
      return;
    }
  }
  (void)resize_out(a, out, shape.span());
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::empty.out", empty_out_boxed);
EMBER_REGISTER_KERNEL("dim_order_ops::_empty_dim_order.out",
                      empty_dim_order_out_boxed);

}  // namespace ember
