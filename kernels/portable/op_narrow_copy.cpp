// aten::narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length,
//                       *, Tensor(a!) out)
// out = self[start : start + length] along `dim`. A negative start counts
// from the end; the range must lie inside the dim (PyTorch's check).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void narrow_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::narrow_copy.out", 6);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  int64_t start = a.int_value(2);
  const int64_t length = a.int_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "narrow() cannot be applied to a zero-dim tensor");
    return;
  }
  size_t d;
  if (!normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  const int64_t size = self.sizes()[d];
  if (start < -size || start > size) {
    a.fail(Error::InvalidArgument, "start %lld out of range for dim %zu of size %lld",
           static_cast<long long>(start), d, static_cast<long long>(size));
    return;
  }
  if (start < 0) {
    start += size;
  }
  if (length < 0 || length > size - start) {
    a.fail(Error::InvalidArgument,
           "start (%lld) + length (%lld) exceeds dim %zu of size %lld",
           static_cast<long long>(start), static_cast<long long>(length), d,
           static_cast<long long>(size));
    return;
  }
  Shape shape = shape_of(self);
  shape.sizes[d] = SizesType(length);
  int64_t strides[kMaxTensorDim];
  for (size_t k = 0; k < self.dim(); ++k) {
    strides[k] = self.strides()[k];
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const char* base = static_cast<const char*>(self.const_data_ptr());
  if (length > 0) {
    base += start * self.strides()[d] * int64_t(self.element_size());
  }
  copy_strided_view(base, self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::narrow_copy.out", narrow_copy_out_boxed);

}  // namespace ember
