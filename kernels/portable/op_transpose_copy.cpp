// aten::transpose_copy.int_out(Tensor self, int dim0, int dim1, *,
//                              Tensor(a!) out)
// out = self with dims dim0 and dim1 swapped.
//
// A prepared kernel: Prepared calls skip the dtype check; dim0 and dim1 are read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void transpose_copy_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::transpose_copy.int_out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim0 = a.int_value(1), dim1 = a.int_value(2);
  const Tensor out = a.tensor(3);
  size_t d0, d1;
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out)) ||
      !normalize_dim(a, dim0, self.dim(), "dim0", &d0) ||
      !normalize_dim(a, dim1, self.dim(), "dim1", &d1)) {
    return;
  }
  Shape shape = shape_of(self);
  int64_t strides[kMaxTensorDim];
  for (size_t i = 0; i < self.dim(); ++i) {
    strides[i] = self.strides()[i];
  }
  if (self.dim() > 0) {
    shape.sizes[d0] = self.sizes()[d1];
    shape.sizes[d1] = self.sizes()[d0];
    strides[d0] = self.strides()[d1];
    strides[d1] = self.strides()[d0];
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::transpose_copy.int_out",
                      transpose_copy_int_out_boxed);

}  // namespace ember
