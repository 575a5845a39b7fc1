// aten::unfold_copy.out(Tensor self, int dimension, int size, int step, *,
//                       Tensor(a!) out)
// The windows of `size` elements along `dimension`, every `step`
// elements: that dim becomes the window count, (n - size) / step + 1, and
// a last dim of `size` is appended. A zero-dim self is treated as one
// element (out is [size], size 0 or 1). size must be in [0, n] and step
// positive, as PyTorch checks.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void unfold_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::unfold_copy.out", 6);
  const Tensor self = a.tensor(0);
  const int64_t dimension = a.int_value(1);
  const int64_t size = a.int_value(2);
  const int64_t step = a.int_value(3);
  const Tensor out = a.tensor(4);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !normalize_dim(a, dimension, self.dim(), "dimension", &d)) {
    return;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[d];
  if (size < 0 || size > n) {
    a.fail(Error::InvalidArgument,
           "size is %lld but must be in [0, %lld] (the size of dimension %zu)",
           static_cast<long long>(size), static_cast<long long>(n), d);
    return;
  }
  if (step <= 0) {
    a.fail(Error::InvalidArgument, "step is %lld but must be > 0",
           static_cast<long long>(step));
    return;
  }
  Shape shape;
  int64_t strides[kMaxTensorDim];
  if (self.dim() > 0) {
    shape = shape_of(self);
    for (size_t k = 0; k < self.dim(); ++k) {
      strides[k] = self.strides()[k];
    }
    const int64_t windows = (n - size) / step + 1;
    shape.sizes[d] = SizesType(windows);
    // With one window the step is never applied (a huge one would
    // overflow the product).
    if (windows > 1) {
      strides[d] *= step;
    }
  }
  if (shape.dim == kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "out would have more than %zu dims", kMaxTensorDim);
    return;
  }
  strides[shape.dim] = self.dim() == 0 ? 1 : self.strides()[d];
  shape.sizes[shape.dim++] = SizesType(size);
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::unfold_copy.out", unfold_copy_out_boxed);

}  // namespace ember
