// aten::repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out)
// Tiles self: repeats has at least self.dim() entries (extra ones add
// leading dims); out size along d is self's size times repeats[d].
#include <cstring>

#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void repeat_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::repeat.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> repeats = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (repeats.size() < self.dim() || repeats.size() > kMaxTensorDim) {
    a.fail(Error::InvalidArgument,
           "repeats has %zu entries; need between %zu (self's dims) and %zu",
           repeats.size(), self.dim(), kMaxTensorDim);
    return;
  }
  const size_t nd = repeats.size();
  const size_t lead = nd - self.dim();
  Shape shape;
  shape.dim = nd;
  SizesType src_sizes[kMaxTensorDim];
  int64_t src_strides[kMaxTensorDim];
  for (size_t k = 0; k < nd; ++k) {
    src_sizes[k] = k < lead ? 1 : self.sizes()[k - lead];
    src_strides[k] = k < lead ? 0 : self.strides()[k - lead];
    if (repeats[k] < 0) {
      a.fail(Error::InvalidArgument, "repeats[%zu] = %lld is negative", k,
             static_cast<long long>(repeats[k]));
      return;
    }
    // Checked before the product, which could overflow for a huge repeat.
    if (repeats[k] > INT32_MAX ||
        int64_t(src_sizes[k]) * repeats[k] > INT32_MAX) {
      a.fail(Error::InvalidArgument, "repeated size at dim %zu is too large", k);
      return;
    }
    shape.sizes[k] = SizesType(int64_t(src_sizes[k]) * repeats[k]);
  }
  if (!resize_out(a, out, shape.span()) || out.numel() == 0 || nd == 0) {
    if (a.ok() && nd == 0 && out.numel() == 1) {
      std::memmove(out.mutable_data_ptr(), self.const_data_ptr(), out.element_size());
    }
    return;
  }
  // Execute: out is contiguous; each innermost out row is the matching
  // source row repeated repeats[last] times.
  const size_t last = nd - 1;
  const int64_t row = src_sizes[last];
  const int64_t out_row = shape.sizes[last];
  const int64_t rows = out.numel() / out_row;
  (void)visit_element_width(out.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* src = static_cast<const W*>(self.const_data_ptr());
    W* dst = static_cast<W*>(out.mutable_data_ptr());
    int64_t coord[kMaxTensorDim] = {};
    for (int64_t r = 0; r < rows; ++r) {
      int64_t off = 0;
      for (size_t k = 0; k < last; ++k) {
        off += (coord[k] % src_sizes[k]) * src_strides[k];
      }
      W* o = dst + r * out_row;
      for (int64_t i = 0; i < row; ++i) {
        o[i] = src[off + i * src_strides[last]];
      }
      for (int64_t c = row; c < out_row; c += row) {
        std::memmove(o + c, o, size_t(row) * sizeof(W));
      }
      for (size_t k = last; k-- > 0;) {
        if (++coord[k] < shape.sizes[k]) {
          break;
        }
        coord[k] = 0;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::repeat.out", repeat_out_boxed);

}  // namespace ember
