// aten::slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None,
//     SymInt? end=None, SymInt step=1, *, Tensor(a!) out)
// Python slicing along one dim: negative start/end count from the end and
// both are clamped to [0, size]; step must be positive.
//
// A prepared kernel: Prepared calls skip the dtype check; dim and the bounds are read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
// The source offset comes from the current data pointer at every call.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/slice_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void slice_copy_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::slice_copy.Tensor_out", 7);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Optional<int64_t> start = a.optional_int(2);
  const Optional<int64_t> end = a.optional_int(3);
  const int64_t step = a.int_value(4);
  const Tensor out = a.tensor(5);
  size_t d;
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out))) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "cannot slice a zero-dim tensor");
    return;
  }
  if (!normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  SliceRange range;
  if (!python_slice(a, start, end, step, self.sizes()[d], &range)) {
    return;
  }
  const int64_t lo = range.start, len = range.length;

  Shape shape = shape_of(self);
  shape.sizes[d] = SizesType(len);
  int64_t strides[kMaxTensorDim];
  for (size_t i = 0; i < self.dim(); ++i) {
    strides[i] = self.strides()[i];
  }
  // With two or more elements step < size, so the product is a real
  // offset; with one or none the stride is never applied (and a huge step
  // would overflow it).
  if (len > 1) {
    strides[d] *= step;
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  const char* base = static_cast<const char*>(self.const_data_ptr());
  if (len > 0) {
    base += lo * self.strides()[d] * int64_t(self.element_size());
  }
  copy_strided_view(base, self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::slice_copy.Tensor_out", slice_copy_tensor_out_boxed);

}  // namespace ember
