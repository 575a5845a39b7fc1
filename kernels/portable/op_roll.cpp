// aten::roll.out(Tensor self, SymInt[1] shifts, int[1] dims=[], *,
//                Tensor(a!) out)
// Rolls self by shifts[i] along dims[i] (elements shifted past the end wrap
// around). With dims empty, self is rolled as if flattened (one shift).
// self and out contiguous.
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

int64_t wrap(int64_t shift, int64_t size) {
  if (size == 0) {
    return 0;
  }
  const int64_t m = shift % size;
  return m < 0 ? m + size : m;
}

void roll_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::roll.out", 5);
  const Tensor self = a.tensor(0);
  const Span<int64_t> shifts = a.int_list(1);
  const Span<int64_t> dims = a.int_list(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_contiguous(a, self, "self") || !check_contiguous(a, out, "out") ||
      !resize_out(a, out, self.sizes())) {
    return;
  }
  // shift_of[d]: the total roll along dim d (flattened: one dim of numel).
  int64_t shift_of[kMaxTensorDim] = {};
  SizesType sizes[kMaxTensorDim];
  size_t nd = self.dim();
  if (dims.size() == 0) {
    if (shifts.size() != 1) {
      a.fail(Error::InvalidArgument,
             "with dims empty, shifts must have one entry (got %zu)", shifts.size());
      return;
    }
    nd = 1;
    shift_of[0] = wrap(shifts[0], self.numel());
    sizes[0] = SizesType(self.numel());
  } else {
    if (shifts.size() != dims.size()) {
      a.fail(Error::InvalidArgument, "shifts (%zu) and dims (%zu) differ in length",
             shifts.size(), dims.size());
      return;
    }
    for (size_t k = 0; k < nd; ++k) {
      sizes[k] = self.sizes()[k];
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      size_t d;
      if (!normalize_dim(a, dims[i], self.dim(), "dims entry", &d)) {
        return;
      }
      if (self.dim() == 0) {
        continue;
      }
      shift_of[d] = wrap(shift_of[d] + wrap(shifts[i], sizes[d]), sizes[d]);
    }
    if (nd == 0) {
      nd = 1;
      sizes[0] = 1;
    }
  }
  if (self.numel() == 0) {
    return;
  }
  int64_t strides[kMaxTensorDim];
  strides[nd - 1] = 1;
  for (size_t k = nd - 1; k-- > 0;) {
    strides[k] = strides[k + 1] * sizes[k + 1];
  }
  // Execute: per innermost row, two contiguous runs.
  const size_t last = nd - 1;
  const int64_t row = sizes[last];
  const int64_t rows = self.numel() / row;
  const int64_t s = shift_of[last];
  (void)visit_element_width(self.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* src = static_cast<const W*>(self.const_data_ptr());
    W* dst = static_cast<W*>(out.mutable_data_ptr());
    int64_t coord[kMaxTensorDim] = {};
    for (int64_t r = 0; r < rows; ++r) {
      int64_t soff = 0;
      for (size_t k = 0; k < last; ++k) {
        int64_t c = coord[k] - shift_of[k];
        c = c < 0 ? c + sizes[k] : c;
        soff += c * strides[k];
      }
      W* o = dst + r * row;
      const W* in = src + soff;
      for (int64_t i = 0; i < row - s; ++i) {
        o[s + i] = in[i];
      }
      for (int64_t i = 0; i < s; ++i) {
        o[i] = in[row - s + i];
      }
      for (size_t k = last; k-- > 0;) {
        if (++coord[k] < sizes[k]) {
          break;
        }
        coord[k] = 0;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::roll.out", roll_out_boxed);

}  // namespace ember
