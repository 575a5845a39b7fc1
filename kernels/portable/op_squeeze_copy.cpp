// aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out)
// Removes each listed dim whose size is 1 (others are kept, as in PyTorch).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void squeeze_copy_dims_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::squeeze_copy.dims_out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  bool drop[kMaxTensorDim] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    size_t d;
    if (!normalize_dim(a, dims[i], self.dim(), "dim", &d)) {
      return;
    }
    if (self.dim() > 0 && self.sizes()[d] == 1) {
      drop[d] = true;
    }
  }
  Shape shape;
  int64_t strides[kMaxTensorDim];
  for (size_t d = 0; d < self.dim(); ++d) {
    if (!drop[d]) {
      shape.sizes[shape.dim] = self.sizes()[d];
      strides[shape.dim] = self.strides()[d];
      ++shape.dim;
    }
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::squeeze_copy.dims_out", squeeze_copy_dims_out_boxed);

}  // namespace ember
