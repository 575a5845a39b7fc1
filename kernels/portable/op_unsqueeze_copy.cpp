// aten::unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out)
// Inserts a size-1 dim at `dim` (in [-self.dim()-1, self.dim()]).
//
// A prepared kernel: Prepared calls skip the dtype check; dim is read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void unsqueeze_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::unsqueeze_copy.out", 4);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor out = a.tensor(2);
  size_t at;
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out)) ||
      !normalize_dim(a, dim, self.dim() + 1, "dim", &at)) {
    return;
  }
  if (self.dim() + 1 > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "result would have more than %zu dims",
           kMaxTensorDim);
    return;
  }
  Shape shape;
  shape.dim = self.dim() + 1;
  int64_t strides[kMaxTensorDim];
  for (size_t i = 0, src = 0; i < shape.dim; ++i) {
    if (i == at) {
      shape.sizes[i] = 1;
      strides[i] = 0;
    } else {
      shape.sizes[i] = self.sizes()[src];
      strides[i] = self.strides()[src];
      ++src;
    }
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::unsqueeze_copy.out", unsqueeze_copy_out_boxed);

}  // namespace ember
