// aten::constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *,
//                           Tensor(a!) out)
// pad holds (left, right) pairs starting from the last dim. Negative pads
// crop. out is filled with `value` (cast to its dtype) around the copied
// region. out contiguous; self any dim order.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks;
// pad is a value, read and checked at every call, and out's shape only
// compared (out_shape_prologue); value is converted at every call.
#include <cstring>

#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void constant_pad_nd_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::constant_pad_nd.out", 5);
  const Tensor self = a.tensor(0);
  const Span<int64_t> pad = a.int_list(1);
  const Scalar value = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() ||
      (!a.prepared() && (!check_same_dtype(a, self, out) || !check_contiguous(a, out, "out")))) {
    return;
  }
  const size_t nd = self.dim();
  if (pad.size() % 2 != 0 || pad.size() / 2 > nd) {
    a.fail(Error::InvalidArgument,
           "pad has %zu entries; need an even count of at most 2 * %zu",
           pad.size(), nd);
    return;
  }
  int64_t before[kMaxTensorDim] = {}, after[kMaxTensorDim] = {};
  Shape shape = shape_of(self);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const size_t d = nd - 1 - i;
    before[d] = pad[2 * i];
    after[d] = pad[2 * i + 1];
    const int64_t limit = int64_t(INT32_MAX);
    if (before[d] < -limit || before[d] > limit || after[d] < -limit ||
        after[d] > limit) {
      a.fail(Error::InvalidArgument, "pad for dim %zu is too large", d);
      return;
    }
    const int64_t size = int64_t(self.sizes()[d]) + before[d] + after[d];
    if (size < 0 || size > limit) {
      a.fail(Error::InvalidArgument,
             "padded size %lld of dim %zu is invalid", static_cast<long long>(size), d);
      return;
    }
    shape.sizes[d] = SizesType(size);
  }
  if (!out_shape_prologue(a, out, shape.span()) || !fill_with_scalar(a, out, value)) {
    return;
  }
  // The region of self that survives, and where it lands in out.
  SizesType region[kMaxTensorDim];
  int64_t strides[2][kMaxTensorDim];
  int64_t src_off = 0, dst_off = 0;
  for (size_t d = 0; d < nd; ++d) {
    const int64_t lo = before[d] < 0 ? -before[d] : 0;
    int64_t hi = int64_t(self.sizes()[d]) - (after[d] < 0 ? -after[d] : 0);
    hi = hi < lo ? lo : hi;
    region[d] = SizesType(hi - lo);
    if (region[d] == 0) {
      return;
    }
    src_off += lo * self.strides()[d];
    dst_off += (before[d] > 0 ? before[d] : 0) * out.strides()[d];
    strides[0][d] = self.strides()[d];
    strides[1][d] = out.strides()[d];
  }
  if (nd == 0) {
    std::memmove(out.mutable_data_ptr(), self.const_data_ptr(), out.element_size());
    return;
  }
  const size_t last = nd - 1;
  const int64_t row = region[last];
  int64_t count = 1;
  for (size_t d = 0; d < nd; ++d) {
    count *= region[d];
  }
  (void)visit_element_width(out.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* src = static_cast<const W*>(self.const_data_ptr()) + src_off;
    W* dst = static_cast<W*>(out.mutable_data_ptr()) + dst_off;
    const int64_t ss = strides[0][last];
    Odometer<2> it(region, last, strides);
    for (int64_t r = 0; r < count / row; ++r, it.next()) {
      const W* s = src + it.offsets()[0];
      W* o = dst + it.offsets()[1];
      for (int64_t i = 0; i < row; ++i) {
        o[i] = s[i * ss];
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::constant_pad_nd.out", constant_pad_nd_out_boxed);

}  // namespace ember
