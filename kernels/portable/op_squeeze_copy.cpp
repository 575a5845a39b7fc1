// aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out)
// aten::squeeze_copy.dim_out(Tensor self, int dim, *, Tensor(a!) out)
// Removes each listed dim (or the one dim) whose size is 1 (others are
// kept, as in PyTorch). A zero-dim self accepts dim 0 or -1 and stays
// zero-dim. Any storage dtype, complex ones included (moved as bytes).
//
// A prepared kernel: Prepared calls skip the dtype check; the dims are read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// Copies self into out without the dims marked in `drop`.
void squeeze_into(KernelArgs& a, Tensor self, const bool* drop, Tensor out) {
  Shape shape;
  int64_t strides[kMaxTensorDim];
  for (size_t d = 0; d < self.dim(); ++d) {
    if (!drop[d]) {
      shape.sizes[shape.dim] = self.sizes()[d];
      strides[shape.dim] = self.strides()[d];
      ++shape.dim;
    }
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

// Marks `dim` in `drop` when its size is 1; false after failing the kernel
// for a dim out of range.
bool mark_squeezable(KernelArgs& a, Tensor self, int64_t dim, bool* drop) {
  size_t d;
  if (!normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return false;
  }
  if (self.dim() > 0 && self.sizes()[d] == 1) {
    drop[d] = true;
  }
  return true;
}

void squeeze_copy_dims_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::squeeze_copy.dims_out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_same_movable_dtype(a, self, out))) {
    return;
  }
  bool drop[kMaxTensorDim] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!mark_squeezable(a, self, dims[i], drop)) {
      return;
    }
  }
  squeeze_into(a, self, drop, out);
}

void squeeze_copy_dim_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::squeeze_copy.dim_out", 4);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_same_movable_dtype(a, self, out))) {
    return;
  }
  bool drop[kMaxTensorDim] = {};
  if (mark_squeezable(a, self, dim, drop)) {
    squeeze_into(a, self, drop, out);
  }
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::squeeze_copy.dims_out", squeeze_copy_dims_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::squeeze_copy.dim_out", squeeze_copy_dim_out_boxed);

}  // namespace ember
