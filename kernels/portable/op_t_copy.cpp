// aten::t_copy.out(Tensor self, *, Tensor(a!) out)
// Transposes a 2-D tensor; 0-D and 1-D tensors are copied unchanged.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void t_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::t_copy.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (self.dim() > 2) {
    a.fail(Error::InvalidArgument, "self must have at most 2 dims, has %zu",
           self.dim());
    return;
  }
  Shape shape = shape_of(self);
  int64_t strides[2] = {0, 0};
  for (size_t i = 0; i < self.dim(); ++i) {
    strides[i] = self.strides()[i];
  }
  if (self.dim() == 2) {
    shape.sizes[0] = self.sizes()[1];
    shape.sizes[1] = self.sizes()[0];
    const int64_t s0 = strides[0];
    strides[0] = strides[1];
    strides[1] = s0;
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::t_copy.out", t_copy_out_boxed);

}  // namespace ember
