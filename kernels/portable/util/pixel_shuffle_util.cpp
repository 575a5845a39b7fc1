#include "kernels/portable/util/pixel_shuffle_util.h"

#include <cstring>

#include "kernels/portable/util/shape_util.h"

namespace ember {
namespace {

// Moves elements of `es` bytes between the [b, c, h, i, w, j] view of the
// large-plane side and the [b, c, i, j, h, w] view of the channel side.
template <typename E>
void shuffle(const E* in, E* out, int64_t batch, int64_t c, int64_t h,
             int64_t w, int64_t r, bool upscale) {
  // Small side: [batch, c * r * r, h, w]; big side: [batch, c, h * r, w * r].
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t i = 0; i < r; ++i) {
        for (int64_t j = 0; j < r; ++j) {
          const int64_t small = ((b * c + ch) * r * r + i * r + j) * h * w;
          for (int64_t y = 0; y < h; ++y) {
            const int64_t big = ((b * c + ch) * h * r + y * r + i) * w * r + j;
            if (upscale) {
              const E* src = in + small + y * w;
              E* dst = out + big;
              for (int64_t x = 0; x < w; ++x) {
                dst[x * r] = src[x];
              }
            } else {
              const E* src = in + big;
              E* dst = out + small + y * w;
              for (int64_t x = 0; x < w; ++x) {
                dst[x] = src[x * r];
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

void pixel_shuffle(KernelArgs& a, Tensor self, int64_t r, Tensor out,
                   bool upscale) {
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_contiguous(a, self, "self") || !check_contiguous(a, out, "out")) {
    return;
  }
  const size_t ndim = self.dim();
  if (ndim < 3) {
    a.fail(Error::InvalidArgument, "self must have at least 3 dims, has %zu", ndim);
    return;
  }
  if (r < 1 || r > (int64_t(1) << 15)) {
    a.fail(Error::InvalidArgument, "factor %lld is out of range",
           static_cast<long long>(r));
    return;
  }
  const int64_t ch = self.sizes()[ndim - 3], h = self.sizes()[ndim - 2],
                w = self.sizes()[ndim - 1];
  Shape shape = shape_of(self);
  int64_t c, sh, sw;  // channels / spatial size on the small-plane side
  if (upscale) {
    if (ch % (r * r) != 0) {
      a.fail(Error::InvalidArgument, "channels %lld not divisible by %lld",
             static_cast<long long>(ch), static_cast<long long>(r * r));
      return;
    }
    c = ch / (r * r);
    sh = h;
    sw = w;
    if (h * r > INT32_MAX || w * r > INT32_MAX) {
      a.fail(Error::InvalidArgument, "output is too large");
      return;
    }
    shape.sizes[ndim - 3] = SizesType(c);
    shape.sizes[ndim - 2] = SizesType(h * r);
    shape.sizes[ndim - 1] = SizesType(w * r);
  } else {
    if (h % r != 0 || w % r != 0) {
      a.fail(Error::InvalidArgument, "height %lld and width %lld not divisible by %lld",
             static_cast<long long>(h), static_cast<long long>(w),
             static_cast<long long>(r));
      return;
    }
    if (ch * r * r > INT32_MAX) {
      a.fail(Error::InvalidArgument, "output is too large");
      return;
    }
    c = ch;
    sh = h / r;
    sw = w / r;
    shape.sizes[ndim - 3] = SizesType(ch * r * r);
    shape.sizes[ndim - 2] = SizesType(sh);
    shape.sizes[ndim - 1] = SizesType(sw);
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const int64_t plane = ch * h * w;
  const int64_t batch = plane == 0 ? 0 : self.numel() / plane;
  const void* in = self.const_data_ptr();
  void* o = out.mutable_data_ptr();
  switch (self.element_size()) {
    case 1: shuffle(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(o), batch, c, sh, sw, r, upscale); break;
    case 2: shuffle(static_cast<const uint16_t*>(in), static_cast<uint16_t*>(o), batch, c, sh, sw, r, upscale); break;
    case 4: shuffle(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(o), batch, c, sh, sw, r, upscale); break;
    case 8: shuffle(static_cast<const uint64_t*>(in), static_cast<uint64_t*>(o), batch, c, sh, sw, r, upscale); break;
    default:
      a.fail(Error::NotSupported, "element size %zu is not supported",
             self.element_size());
  }
}

}  // namespace ember
