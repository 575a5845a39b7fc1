#include "kernels/portable/util/pad_util.h"

#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {
namespace {

// Copies [planes, D, H, W] -> [planes, OD, OH, OW] (missing leading
// spatial dims have size 1 and no padding).
template <typename W>
void pad_copy(const W* in, W* out, int64_t planes, const int64_t* in_sz,
              const int64_t* out_sz, const int64_t* before, PadMode mode) {
  const int64_t in_plane = in_sz[0] * in_sz[1] * in_sz[2];
  for (int64_t p = 0; p < planes; ++p) {
    const W* ip = in + p * in_plane;
    for (int64_t od = 0; od < out_sz[0]; ++od) {
      const int64_t d = pad_source_index(od, in_sz[0], before[0], mode);
      for (int64_t oh = 0; oh < out_sz[1]; ++oh) {
        const int64_t h = pad_source_index(oh, in_sz[1], before[1], mode);
        const W* row = ip + (d * in_sz[1] + h) * in_sz[2];
        for (int64_t ow = 0; ow < out_sz[2]; ++ow) {
          *out++ = row[pad_source_index(ow, in_sz[2], before[2], mode)];
        }
      }
    }
  }
}

}  // namespace

void pad_out(KernelArgs& a, Tensor in, Span<int64_t> padding, size_t spatial,
             PadMode mode, Tensor out) {
  if (!a.ok() || !check_supported_dtype(a, in, "self") ||
      !check_same_dtype(a, in, out) || !check_contiguous(a, in, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  const size_t nd = in.dim();
  if (nd != spatial + 1 && nd != spatial + 2) {
    a.fail(Error::InvalidArgument, "self must have %zu or %zu dims, has %zu",
           spatial + 1, spatial + 2, nd);
    return;
  }
  if (padding.size() != 2 * spatial) {
    a.fail(Error::InvalidArgument, "padding must have %zu entries, has %zu",
           2 * spatial, padding.size());
    return;
  }
  // Every dim but the first must be nonzero (PyTorch's rule).
  for (size_t d = 1; d < nd; ++d) {
    if (in.sizes()[d] == 0) {
      a.fail(Error::InvalidArgument, "dim %zu of self is empty; only dim 0 may be", d);
      return;
    }
  }
  // Sizes of the (up to) three padded dims, front-filled with 1.
  int64_t in_sz[3] = {1, 1, 1}, out_sz[3] = {1, 1, 1}, before[3] = {0, 0, 0};
  Shape shape = shape_of(in);
  for (size_t i = 0; i < spatial; ++i) {
    const size_t d = nd - 1 - i;  // padding pair i pads dim d
    const int64_t lo = padding[2 * i], hi = padding[2 * i + 1];
    const int64_t size = in.sizes()[d];
    const int64_t limit = int64_t(INT32_MAX);
    if (lo < -limit || lo > limit || hi < -limit || hi > limit) {
      a.fail(Error::InvalidArgument, "padding (%lld, %lld) for dim %zu is out of range",
             static_cast<long long>(lo), static_cast<long long>(hi), d);
      return;
    }
    if (mode == PadMode::Reflect && (lo >= size || hi >= size)) {
      a.fail(Error::InvalidArgument,
             "reflection padding (%lld, %lld) must be smaller than dim %zu (size %lld)",
             static_cast<long long>(lo), static_cast<long long>(hi), d,
             static_cast<long long>(size));
      return;
    }
    const int64_t padded = size + lo + hi;
    if (padded < 1 || padded > limit) {
      a.fail(Error::InvalidArgument, "padded size %lld of dim %zu is out of range",
             static_cast<long long>(padded), d);
      return;
    }
    in_sz[2 - i] = size;
    out_sz[2 - i] = padded;
    before[2 - i] = lo;
    shape.sizes[d] = SizesType(padded);
  }
  // The padded dims each fit int32, so their product is below 2^93: check
  // the output's element count step by step.
  int64_t planes = 1;
  for (size_t d = 0; d + spatial < nd; ++d) {
    planes *= in.sizes()[d];
  }
  int64_t total = planes;
  for (size_t i = 0; i < 3; ++i) {
    if (__builtin_mul_overflow(total, out_sz[i], &total) || total > INT32_MAX) {
      a.fail(Error::InvalidArgument, "padded output is too large");
      return;
    }
  }
  if (!resize_out(a, out, shape.span()) || total == 0) {
    return;
  }
  (void)visit_element_width(out.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    pad_copy<W>(static_cast<const W*>(in.const_data_ptr()),
                static_cast<W*>(out.mutable_data_ptr()), planes, in_sz, out_sz,
                before, mode);
  });
}

}  // namespace ember
