// aten::select_scatter.out(Tensor self, Tensor src, int dim, SymInt index,
//                          *, Tensor(a!) out)
// out = self, then out[..., index, ...] = src along `dim`. A negative dim
// or index counts from the end; out of range is an error. src must have
// exactly the selected slice's shape (self's without `dim`; PyTorch's
// check); its dtype converts to self's.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/index_util.h"
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
  Shape slice;
  for (size_t k = 0; k < self.dim(); ++k) {
    if (k != d) {
      slice.sizes[slice.dim++] = self.sizes()[k];
    }
  }
  if (!check_shape(a, src, slice, "src") || !resize_out(a, out, self.sizes()) ||
      !copy_broadcast(a, self, out)) {
    return;
  }
  int64_t strides[kMaxTensorDim];
  size_t n = 0;
  for (size_t k = 0; k < out.dim(); ++k) {
    if (k != d) {
      strides[n++] = out.strides()[k];
    }
  }
  char* base = static_cast<char*>(out.mutable_data_ptr()) +
               i * out.strides()[d] * int64_t(out.element_size());
  copy_into_strided_view(src, base, out.scalar_type(), strides);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::select_scatter.out", select_scatter_out_boxed);

}  // namespace ember
