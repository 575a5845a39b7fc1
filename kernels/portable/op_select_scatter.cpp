// aten::select_scatter.out(Tensor self, Tensor src, int dim, SymInt index,
//                          *, Tensor(a!) out)
// out = self, then out[..., index, ...] = src along `dim`. A negative dim
// or index counts from the end; out of range is an error. src must have
// exactly the selected slice's shape (self's without `dim`; PyTorch's
// check); its dtype converts to self's.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/select_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void select_scatter_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::select_scatter.out", 6);
  const Tensor self = a.tensor(0), src = a.tensor(1);
  const int64_t dim = a.int_value(2);
  const int64_t index = a.int_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_supported_dtype(a, src, "src")) {
    return;
  }
  SelectView v;
  if (!select_view(a, self, dim, index, &v) || !check_shape(a, src, v.shape, "src") ||
      !resize_out(a, out, self.sizes()) || !copy_broadcast(a, self, out)) {
    return;
  }
  if (out.numel() == 0) {
    return;  // nothing to write (and no data pointer to offset)
  }
  // out has self's sizes, so its view cannot fail; its strides may differ.
  SelectView ov;
  (void)select_view(a, out, dim, index, &ov);
  char* base = static_cast<char*>(out.mutable_data_ptr()) + ov.byte_offset;
  copy_into_strided_view(src, base, out.scalar_type(), ov.strides);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::select_scatter.out", select_scatter_out_boxed);

}  // namespace ember
