// aten::slice_scatter.out(Tensor self, Tensor src, int dim=0,
//     SymInt? start=None, SymInt? end=None, SymInt step=1, *,
//     Tensor(a!) out)
// out = self, then out[..., start:end:step, ...] = src along `dim`, with
// Python slice bounds (slice_util.h). src must have exactly the slice's
// shape (no broadcasting, PyTorch's check); its dtype converts to self's.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/slice_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void slice_scatter_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::slice_scatter.out", 8);
  const Tensor self = a.tensor(0), src = a.tensor(1);
  const int64_t dim = a.int_value(2);
  const Optional<int64_t> start = a.optional_int(3);
  const Optional<int64_t> end = a.optional_int(4);
  const int64_t step = a.int_value(5);
  const Tensor out = a.tensor(6);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_supported_dtype(a, src, "src")) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "cannot slice a zero-dim tensor");
    return;
  }
  size_t d;
  SliceRange range;
  if (!normalize_dim(a, dim, self.dim(), "dim", &d) ||
      !python_slice(a, start, end, step, self.sizes()[d], &range)) {
    return;
  }
  Shape slice = shape_of(self);
  slice.sizes[d] = SizesType(range.length);
  if (!check_shape(a, src, slice, "src")) {
    return;
  }
  if (!resize_out(a, out, self.sizes()) || !copy_broadcast(a, self, out)) {
    return;
  }
  int64_t strides[kMaxTensorDim];
  strides_of(out, strides);
  // With one element or none the step is never applied (and a huge step
  // would overflow the product).
  if (range.length > 1) {
    strides[d] *= step;
  }
  char* base = static_cast<char*>(out.mutable_data_ptr());
  if (range.length > 0) {
    base += range.start * out.strides()[d] * int64_t(out.element_size());
  }
  copy_into_strided_view(src, base, out.scalar_type(), strides);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::slice_scatter.out", slice_scatter_out_boxed);

}  // namespace ember
