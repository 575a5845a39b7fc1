// Depthwise NCHW convolution (conv.h): each worker copies an input plane
// into its workspace with a zero border, then every output row is
// accumulated in vector registers over every tap (stride 1 reads
// contiguous input; stride 2 reads two vectors and keeps the even lanes;
// larger strides take a scalar loop). Every output element is bias plus
// its taps in (ky, kx) order, padding taps included as zeros.
#include <algorithm>
#include <cmath>

#include "kernels/optimized/conv.h"
#include "kernels/optimized/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::opt {
namespace {

// One output plane's bias and epilogue (conv.h's ConvEpilogue for its
// channel): out = clamp((acc + bias) * scale + shift, lo, hi).
struct PlaneTail {
  float bias = 0.0f, scale = 1.0f, shift = 0.0f, lo = -INFINITY, hi = INFINITY;
  bool affine = false;
};

template <typename V>
EMBER_OPT_INLINE void finish(V& acc, const PlaneTail& t) {
  if (t.affine) acc = acc * t.scale + t.shift;
  acc = acc < t.lo ? V{} + t.lo : acc;
  acc = acc > t.hi ? V{} + t.hi : acc;
}

inline float finish_scalar(float acc, const PlaneTail& t) {
  if (t.affine) acc = acc * t.scale + t.shift;
  acc = acc < t.lo ? t.lo : acc;
  return acc > t.hi ? t.hi : acc;
}

// Floats per vector of each ISA's instantiation.
size_t lanes(Isa isa) { return isa == Isa::kAvx512 ? 16 : isa == Isa::kAvx2 ? 8 : 4; }

// The plane copied into `pad` with its zero border: pad_h rows above and
// below, pad_w columns left, and on the right enough zeros that every
// vector load of an output row (w lanes) stays inside the row.
size_t padded_width(const Conv2dShape& s, size_t w) {
  // The last vector of a row starts at output column round_down(out_w - 1,
  // w) and reads (at stride 2, two vectors) up to here:
  const size_t last_ox = (s.out_w - 1) / w * w;
  const size_t reach = last_ox * s.stride_w + (s.kernel_w - 1) * s.dilation_w +
                       (s.stride_w == 2 ? 2 * w : s.stride_w == 1 ? w : 1);
  return std::max(s.in_w + 2 * s.pad_w, reach);
}

void pad_plane(const Conv2dShape& s, size_t pw, const float* ip, float* pad) {
  const size_t ph = s.in_h + 2 * s.pad_h;
  std::fill(pad, pad + s.pad_h * pw, 0.0f);
  for (size_t y = 0; y < s.in_h; ++y) {
    float* row = pad + (y + s.pad_h) * pw;
    std::fill(row, row + s.pad_w, 0.0f);
    std::copy(ip + y * s.in_w, ip + (y + 1) * s.in_w, row + s.pad_w);
    std::fill(row + s.pad_w + s.in_w, row + pw, 0.0f);
  }
  std::fill(pad + (s.in_h + s.pad_h) * pw, pad + ph * pw, 0.0f);
}

// One output plane from a padded input plane: no bounds checks; the last
// partial vector of a row is computed whole and stored in part.
template <typename V>
EMBER_OPT_INLINE void depthwise_plane(const Conv2dShape& s, const float* pad, const float* w,
                                      const PlaneTail& tail, float* op) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const size_t pw = padded_width(s, W);
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    float* orow = op + oy * s.out_w;
    const float* top = pad + oy * s.stride_h * pw;
    for (size_t ox = 0; ox < s.out_w; ox += W) {
      V acc = V{} + tail.bias;
      for (size_t ky = 0; ky < s.kernel_h; ++ky) {
        const float* irow = top + ky * s.dilation_h * pw + ox * s.stride_w;
        for (size_t kx = 0; kx < s.kernel_w; ++kx) {
          V x;
          load_strided(irow + kx * s.dilation_w, s.stride_w, x);
          acc += x * w[ky * s.kernel_w + kx];
        }
      }
      finish(acc, tail);
      store_first(orow + ox, acc, s.out_w - ox);
    }
  }
}

// The common 3x3 window (dilation 1) at a compile-time stride: the nine
// weights stay in registers. Same taps in the same order as
// depthwise_plane, so the same sums.
template <typename V, size_t S>
EMBER_OPT_INLINE void depthwise_plane_3x3(const Conv2dShape& s, const float* pad,
                                          const float* w, const PlaneTail& tail, float* op) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const size_t pw = padded_width(s, W);
  V k[9];
  for (size_t i = 0; i < 9; ++i) k[i] = V{} + w[i];
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    float* orow = op + oy * s.out_w;
    const float* r0 = pad + oy * S * pw;
    const float* r1 = r0 + pw;
    const float* r2 = r1 + pw;
    for (size_t ox = 0; ox < s.out_w; ox += W) {
      const size_t x = ox * S;
      V acc = V{} + tail.bias, t;
      load_strided(r0 + x, S, t), acc += t * k[0];
      load_strided(r0 + x + 1, S, t), acc += t * k[1];
      load_strided(r0 + x + 2, S, t), acc += t * k[2];
      load_strided(r1 + x, S, t), acc += t * k[3];
      load_strided(r1 + x + 1, S, t), acc += t * k[4];
      load_strided(r1 + x + 2, S, t), acc += t * k[5];
      load_strided(r2 + x, S, t), acc += t * k[6];
      load_strided(r2 + x + 1, S, t), acc += t * k[7];
      load_strided(r2 + x + 2, S, t), acc += t * k[8];
      finish(acc, tail);
      store_first(orow + ox, acc, s.out_w - ox);
    }
  }
}

// Planes with stride above 2: one output at a time from the padded plane.
inline void depthwise_plane_scalar(const Conv2dShape& s, size_t pw, const float* pad,
                                   const float* w, const PlaneTail& tail, float* op) {
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    for (size_t ox = 0; ox < s.out_w; ++ox) {
      float acc = tail.bias;
      for (size_t ky = 0; ky < s.kernel_h; ++ky) {
        const float* irow = pad + (oy * s.stride_h + ky * s.dilation_h) * pw + ox * s.stride_w;
        for (size_t kx = 0; kx < s.kernel_w; ++kx) acc += irow[kx * s.dilation_w] * w[ky * s.kernel_w + kx];
      }
      op[oy * s.out_w + ox] = finish_scalar(acc, tail);
    }
  }
}

using PlaneFn = void (*)(const Conv2dShape&, const float*, const float*, const PlaneTail&,
                         float*);

template <typename V>
EMBER_OPT_INLINE void plane_any(const Conv2dShape& s, const float* pad, const float* w,
                                const PlaneTail& tail, float* op) {
  const bool k3 = s.kernel_h == 3 && s.kernel_w == 3 && s.dilation_h == 1 && s.dilation_w == 1 &&
                  s.stride_h == s.stride_w;
  if (k3 && s.stride_w == 1) return depthwise_plane_3x3<V, 1>(s, pad, w, tail, op);
  if (k3 && s.stride_w == 2) return depthwise_plane_3x3<V, 2>(s, pad, w, tail, op);
  if (s.stride_w <= 2) return depthwise_plane<V>(s, pad, w, tail, op);
  depthwise_plane_scalar(s, padded_width(s, sizeof(V) / sizeof(float)), pad, w, tail, op);
}

void plane_baseline(const Conv2dShape& s, const float* pad, const float* w,
                    const PlaneTail& tail, float* op) {
  plane_any<VecF4>(s, pad, w, tail, op);
}
#if EMBER_OPT_X86_DISPATCH
EMBER_OPT_TARGET_AVX2 void plane_avx2(const Conv2dShape& s, const float* pad, const float* w,
                                      const PlaneTail& tail, float* op) {
  plane_any<VecF8>(s, pad, w, tail, op);
}
EMBER_OPT_TARGET_AVX512 void plane_avx512(const Conv2dShape& s, const float* pad,
                                          const float* w, const PlaneTail& tail, float* op) {
  plane_any<VecF16>(s, pad, w, tail, op);
}
#endif

}  // namespace

size_t conv2d_depthwise_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa) {
  return std::max<size_t>(workers, 1) * (s.in_h + 2 * s.pad_h) * padded_width(s, lanes(isa));
}

void conv2d_depthwise_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, float* workspace, size_t workers,
                               Isa isa, const ConvEpilogue* epilogue) {
  PlaneFn plane = plane_baseline;
#if EMBER_OPT_X86_DISPATCH
  if (isa == Isa::kAvx512) plane = plane_avx512;
  if (isa == Isa::kAvx2) plane = plane_avx2;
#endif
  (void)isa;
  const size_t planes = s.batch * s.out_c;
  const size_t taps = s.kernel_h * s.kernel_w, mult = s.out_c / s.in_c;
  const size_t pw = padded_width(s, lanes(isa));
  const size_t pad_floats = (s.in_h + 2 * s.pad_h) * pw;
  // Worker w takes a contiguous range of planes; consecutive planes of a
  // channel multiplier share their input, padded once.
  auto worker = [&](size_t w, size_t count) {
    float* pad = workspace + w * pad_floats;
    size_t have = SIZE_MAX;
    for (size_t t = planes * w / count; t < planes * (w + 1) / count; ++t) {
      const size_t n = t / s.out_c, oc = t % s.out_c;
      const size_t src = n * s.in_c + oc / mult;
      if (src != have) pad_plane(s, pw, in + src * s.in_h * s.in_w, pad), have = src;
      PlaneTail tail;
      tail.bias = bias ? bias[oc] : 0.0f;
      if (epilogue) {
        tail.lo = epilogue->lo, tail.hi = epilogue->hi;
        if (epilogue->scale) {
          tail.affine = true, tail.scale = epilogue->scale[oc], tail.shift = epilogue->shift[oc];
        }
      }
      plane(s, pad, weight + oc * taps, tail, out + t * s.out_h * s.out_w);
    }
  };
  workers = std::max<size_t>(1, std::min(workers, planes));
  if (workers == 1 || planes * s.out_h * s.out_w * taps < kInlineMacs) return worker(0, 1);
  parallel_for(workers, [&worker, workers](size_t w) { worker(w, workers); });
}

}  // namespace ember::opt
