// aten::select_copy.int_out(Tensor self, int dim, SymInt index, *,
//                           Tensor(a!) out)
// out = self[..., index, ...] along `dim` (that dim removed). A negative
// index counts from the end; out of range is an error. Any dim order.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void select_copy_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::select_copy.int_out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const int64_t index = a.int_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "select() cannot be applied to a zero-dim tensor");
    return;
  }
  size_t d;
  int64_t i;
  if (!normalize_dim(a, dim, self.dim(), "dim", &d) ||
      !normalize_index(a, index, self.sizes()[d], d, "index", &i)) {
    return;
  }
  Shape shape;
  int64_t strides[kMaxTensorDim];
  for (size_t k = 0; k < self.dim(); ++k) {
    if (k != d) {
      strides[shape.dim] = self.strides()[k];
      shape.sizes[shape.dim++] = self.sizes()[k];
    }
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const char* base = static_cast<const char*>(self.const_data_ptr()) +
                     i * self.strides()[d] * int64_t(self.element_size());
  copy_strided_view(base, self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::select_copy.int_out", select_copy_int_out_boxed);

}  // namespace ember
