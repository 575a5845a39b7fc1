// aten::diagonal_copy.out(Tensor self, int offset=0, int dim1=0,
//                         int dim2=1, *, Tensor(a!) out)
// The diagonal of the (dim1, dim2) planes: out has self's other dims in
// order, then the diagonal. offset > 0 is above the main diagonal (along
// dim2), < 0 below it; an offset past the plane gives an empty diagonal.
// Negative dims count from the end; dim1 and dim2 must differ.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void diagonal_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::diagonal_copy.out", 6);
  const Tensor self = a.tensor(0);
  const int64_t offset = a.int_value(1);
  const int64_t dim1 = a.int_value(2), dim2 = a.int_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (self.dim() < 2) {
    a.fail(Error::InvalidArgument, "self must have at least 2 dims, got %zu",
           self.dim());
    return;
  }
  size_t d1, d2;
  if (!normalize_dim(a, dim1, self.dim(), "dim1", &d1) ||
      !normalize_dim(a, dim2, self.dim(), "dim2", &d2)) {
    return;
  }
  if (d1 == d2) {
    a.fail(Error::InvalidArgument, "diagonal dimensions cannot be identical (%lld, %lld)",
           static_cast<long long>(dim1), static_cast<long long>(dim2));
    return;
  }
  const int64_t rows = self.sizes()[d1], cols = self.sizes()[d2];
  // Diagonal length and first element; an offset beyond the plane (either
  // way, any magnitude) leaves it empty.
  int64_t len = 0, start = 0;
  if (offset >= 0 && offset < cols) {
    len = rows < cols - offset ? rows : cols - offset;
    start = offset * self.strides()[d2];
  } else if (offset < 0 && offset > -rows) {
    len = rows + offset < cols ? rows + offset : cols;
    start = -offset * self.strides()[d1];
  }
  Shape shape;
  int64_t strides[kMaxTensorDim];
  for (size_t k = 0; k < self.dim(); ++k) {
    if (k != d1 && k != d2) {
      strides[shape.dim] = self.strides()[k];
      shape.sizes[shape.dim++] = self.sizes()[k];
    }
  }
  strides[shape.dim] = self.strides()[d1] + self.strides()[d2];
  shape.sizes[shape.dim++] = SizesType(len);
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const char* base = static_cast<const char*>(self.const_data_ptr());
  if (shape.numel() > 0) {
    base += start * int64_t(self.element_size());
  }
  copy_strided_view(base, self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::diagonal_copy.out", diagonal_copy_out_boxed);

}  // namespace ember
