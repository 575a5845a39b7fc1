// aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out)
// out (1-D, self's dtype) lists the elements of self where the Bool mask
// is true, self and mask broadcast together, in row-major order of the
// broadcast shape. The length is data-dependent: out is a bounded-dynamic
// tensor resized within its bound (an error if the count does not fit).
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/mask_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void masked_select_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::masked_select.out", 4);
  const Tensor self = a.tensor(0), mask = a.tensor(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out) || !check_bool_mask(a, mask)) {
    return;
  }
  if (out.dim() != 1) {
    a.fail(Error::InvalidArgument, "out must be 1-D, got %zu dims", out.dim());
    return;
  }
  Shape shape;
  int64_t count = 0;
  if (!broadcast_mask(a, self, mask, &shape, &count)) {
    return;
  }
  if (count > INT32_MAX) {
    a.fail(Error::InvalidArgument, "too many selected elements");
    return;
  }
  const SizesType out_size = SizesType(count);
  if (!resize_out(a, out, {&out_size, 1})) {
    return;
  }
  int64_t strides[2][kMaxTensorDim];
  broadcast_strides(self, shape, strides[0]);
  broadcast_strides(mask, shape, strides[1]);
  const uint8_t* m = static_cast<const uint8_t*>(mask.const_data_ptr());
  const int64_t n = shape.numel();
  (void)visit_element_width(self.element_size(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* s = static_cast<const W*>(self.const_data_ptr());
    W* o = static_cast<W*>(out.mutable_data_ptr());
    Odometer<2> walk(shape.sizes, shape.dim, strides);
    // k < count: a mask that a hostile memory plan placed under out could
    // change while out is written; never write past the resized out.
    int64_t k = 0;
    for (int64_t i = 0; i < n && k < count; ++i, walk.next()) {
      if (mask_at(m, walk.offsets()[1])) {
        o[k++] = s[walk.offsets()[0]];
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::masked_select.out", masked_select_out_boxed);

}  // namespace ember
