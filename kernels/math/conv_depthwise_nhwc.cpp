// conv2d_depthwise_nhwc_f32 (conv.h): a direct depthwise convolution on
// channels-last data. Channels are the vector lanes: each output pixel's
// channel block starts from the bias and adds kernel_h x kernel_w products
// of an input vector and a weight vector, the taps outside the input
// skipped (no padded copy). Where a run of kBlock output pixels has every
// column tap inside, they are computed together, each weight vector loaded
// once for all of them. Work is spread over (image, output row) tasks;
// each task's result does not depend on which thread ran it.
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "kernels/math/conv.h"
#include "kernels/math/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

struct DwArgs {
  const Conv2dShape* s;
  const float* in;
  const float* weight;  // [kernel_h, kernel_w, channels]
  const float* bias;    // [channels] or null
  float* out;
  const ConvEpilogue* epilogue;  // or null
};

// The taps k in [*first, *last) of output position `o` whose input index
// o * stride + k * dilation - pad lies in [0, size).
inline void taps_inside(size_t o, size_t stride, size_t pad, size_t dilation, size_t kernel,
                        size_t size, size_t* first, size_t* last) {
  const long base = long(o * stride) - long(pad);
  size_t k0 = 0;
  while (k0 < kernel && base + long(k0 * dilation) < 0) ++k0;
  size_t k1 = kernel;
  while (k1 > k0 && base + long((k1 - 1) * dilation) >= long(size)) --k1;
  *first = k0;
  *last = k1;
}

// The epilogue of channels [c, c + W) (or one channel in the scalar tail).
template <typename V>
EMBER_MATH_INLINE void finish_block(V& acc, const ConvEpilogue* e, size_t c) {
  if (e == nullptr) return;
  if (e->scale != nullptr) {
    V scale, shift;
    load_vec(scale, e->scale + c);
    load_vec(shift, e->shift + c);
    acc = acc * scale + shift;
  }
  const V lo = V{} + e->lo, hi = V{} + e->hi;
  acc = acc < lo ? lo : acc;
  acc = acc > hi ? hi : acc;
}

inline float finish_one(float acc, const ConvEpilogue* e, size_t c) {
  if (e == nullptr) return acc;
  if (e->scale != nullptr) acc = acc * e->scale[c] + e->shift[c];
  acc = acc < e->lo ? e->lo : acc;
  return acc > e->hi ? e->hi : acc;
}

// Channels [c, channels) of output pixel (oy, ox), one at a time: the
// ones past the last whole vector.
inline void tail_channels(const DwArgs& a, size_t n, size_t oy, size_t ky0, size_t ky1,
                          size_t ox, size_t c) {
  const Conv2dShape& s = *a.s;
  const size_t channels = s.in_c;
  const float* image = a.in + n * s.in_h * s.in_w * channels;
  size_t kx0, kx1;
  taps_inside(ox, s.stride_w, s.pad_w, s.dilation_w, s.kernel_w, s.in_w, &kx0, &kx1);
  const size_t ix0 = ox * s.stride_w + kx0 * s.dilation_w - s.pad_w;
  float* o = a.out + ((n * s.out_h + oy) * s.out_w + ox) * channels;
  for (; c < channels; ++c) {
    float acc = a.bias != nullptr ? a.bias[c] : 0.0f;
    for (size_t ky = ky0; ky < ky1; ++ky) {
      const size_t iy = oy * s.stride_h + ky * s.dilation_h - s.pad_h;
      const float* x = image + (iy * s.in_w + ix0) * channels + c;
      const float* w = a.weight + (ky * s.kernel_w + kx0) * channels + c;
      for (size_t kx = kx0; kx < kx1; ++kx) {
        acc += *x * *w;
        x += s.dilation_w * channels;
        w += channels;
      }
    }
    o[c] = finish_one(acc, a.epilogue, c);
  }
}

// Output pixels computed together where every column tap is inside the
// input: each weight vector loaded once serves all of them.
constexpr size_t kBlock = 4;

// Whether output columns [ox, ox + kBlock) all have every column tap inside.
inline bool whole_block(const Conv2dShape& s, size_t ox) {
  if (ox + kBlock > s.out_w || ox * s.stride_w < s.pad_w) return false;
  const size_t last = (ox + kBlock - 1) * s.stride_w + (s.kernel_w - 1) * s.dilation_w;
  return last - s.pad_w < s.in_w;
}

// Channels [c, c + W) of kBlock adjacent output pixels, rows [ky0, ky1).
template <typename V>
EMBER_MATH_INLINE void dw_block(const DwArgs& a, const float* image, size_t oy, size_t ky0,
                                size_t ky1, size_t ox, size_t c, float* o) {
  const Conv2dShape& s = *a.s;
  const size_t channels = s.in_c;
  const size_t step = s.stride_w * channels;  // from one output pixel's input to the next's
  V acc[kBlock];
  for (size_t j = 0; j < kBlock; ++j) {
    acc[j] = V{};
    if (a.bias != nullptr) load_vec(acc[j], a.bias + c);
  }
  for (size_t ky = ky0; ky < ky1; ++ky) {
    const size_t iy = oy * s.stride_h + ky * s.dilation_h - s.pad_h;
    const float* x = image + (iy * s.in_w + ox * s.stride_w - s.pad_w) * channels + c;
    const float* w = a.weight + ky * s.kernel_w * channels + c;
    for (size_t kx = 0; kx < s.kernel_w; ++kx) {
      V wv;
      load_vec(wv, w);
      for (size_t j = 0; j < kBlock; ++j) {
        V xv;
        load_vec(xv, x + j * step);
        acc[j] += xv * wv;
      }
      x += s.dilation_w * channels;
      w += channels;
    }
  }
  for (size_t j = 0; j < kBlock; ++j) {
    finish_block(acc[j], a.epilogue, c);
    store_vec(o + j * channels + c, acc[j]);
  }
}

// One output row of one image.
template <typename V>
EMBER_MATH_INLINE void dw_row(const DwArgs& a, size_t n, size_t oy) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const Conv2dShape& s = *a.s;
  const size_t channels = s.in_c;
  size_t ky0, ky1;
  taps_inside(oy, s.stride_h, s.pad_h, s.dilation_h, s.kernel_h, s.in_h, &ky0, &ky1);
  const float* image = a.in + n * s.in_h * s.in_w * channels;
  float* orow = a.out + (n * s.out_h + oy) * s.out_w * channels;
  for (size_t ox = 0; ox < s.out_w; ++ox) {
    if (channels >= W && whole_block(s, ox)) {
      // The vector channels of kBlock pixels together; their tail below.
      size_t c = 0;
      for (; c + W <= channels; c += W) {
        dw_block<V>(a, image, oy, ky0, ky1, ox, c, orow + ox * channels);
      }
      for (size_t j = 0; j < kBlock; ++j) tail_channels(a, n, oy, ky0, ky1, ox + j, c);
      ox += kBlock - 1;
      continue;
    }
    size_t kx0, kx1;
    taps_inside(ox, s.stride_w, s.pad_w, s.dilation_w, s.kernel_w, s.in_w, &kx0, &kx1);
    const size_t ix0 = ox * s.stride_w + kx0 * s.dilation_w - s.pad_w;
    float* o = orow + ox * channels;
    size_t c = 0;
    for (; c + W <= channels; c += W) {
      V acc = V{};
      if (a.bias != nullptr) load_vec(acc, a.bias + c);
      for (size_t ky = ky0; ky < ky1; ++ky) {
        const size_t iy = oy * s.stride_h + ky * s.dilation_h - s.pad_h;
        const float* x = image + (iy * s.in_w + ix0) * channels + c;
        const float* w = a.weight + (ky * s.kernel_w + kx0) * channels + c;
        for (size_t kx = kx0; kx < kx1; ++kx) {
          V xv, wv;
          load_vec(xv, x);
          load_vec(wv, w);
          acc += xv * wv;
          x += s.dilation_w * channels;
          w += channels;
        }
      }
      finish_block(acc, a.epilogue, c);
      store_vec(o + c, acc);
    }
    tail_channels(a, n, oy, ky0, ky1, ox, c);
  }
}

using RowFn = void (*)(const DwArgs&, size_t, size_t);

void row_baseline(const DwArgs& a, size_t n, size_t oy) { dw_row<VecF4>(a, n, oy); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void row_avx2(const DwArgs& a, size_t n, size_t oy) {
  dw_row<VecF8>(a, n, oy);
}
EMBER_MATH_TARGET_AVX512 void row_avx512(const DwArgs& a, size_t n, size_t oy) {
  dw_row<VecF16>(a, n, oy);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void row_neon(const DwArgs& a, size_t n, size_t oy) { dw_row<VecF8>(a, n, oy); }
#endif

}  // namespace

void conv2d_depthwise_nhwc_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, Isa isa,
                               const ConvEpilogue* epilogue) {
  RowFn row = row_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) row = row_avx512;
  if (isa == Isa::kAvx2) row = row_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) row = row_neon;
#endif
  const DwArgs args{&s, in, weight, bias, out, epilogue};
  const size_t rows = s.batch * s.out_h;
  const size_t macs = rows * s.out_w * s.in_c * s.kernel_h * s.kernel_w;
  if (macs < kInlineMacs) {
    for (size_t r = 0; r < rows; ++r) row(args, r / s.out_h, r % s.out_h);
    return;
  }
  parallel_for(rows, [&](size_t r) { row(args, r / s.out_h, r % s.out_h); });
}

}  // namespace ember::math
