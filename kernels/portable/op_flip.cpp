// aten::flip.out(Tensor self, int[] dims, *, Tensor(a!) out)
// Reverses self along each listed dim (negative dims allowed, no repeats).
// Any dim order: the copy reads self with negative strides.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void flip_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::flip.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !resize_out(a, out, self.sizes())) {
    return;
  }
  bool flipped[kMaxTensorDim] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    size_t d;
    if (!normalize_dim(a, dims[i], self.dim(), "dims entry", &d)) {
      return;
    }
    if (flipped[d]) {
      a.fail(Error::InvalidArgument, "dim %zu appears more than once in dims", d);
      return;
    }
    flipped[d] = true;
  }
  if (self.numel() == 0) {
    return;
  }
  int64_t strides[kMaxTensorDim];
  int64_t offset = 0;
  for (size_t k = 0; k < self.dim(); ++k) {
    strides[k] = self.strides()[k];
    if (flipped[k]) {
      offset += (self.sizes()[k] - 1) * strides[k];
      strides[k] = -strides[k];
    }
  }
  if (self.numel() == 0) {
    return;  // nothing to read (and no data pointer to offset)
  }
  const char* base = static_cast<const char*>(self.const_data_ptr()) +
                     offset * int64_t(self.element_size());
  copy_strided_view(base, self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::flip.out", flip_out_boxed);

}  // namespace ember
