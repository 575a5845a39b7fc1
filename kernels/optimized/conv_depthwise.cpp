// Depthwise NCHW convolution (conv.h): one output plane at a time, each
// output row accumulated in vector registers over every tap. Columns
// whose taps all fall inside the input row take the vector path (stride 1
// reads contiguous input; stride 2 reads two vectors and keeps the even
// lanes); the few edge columns take a scalar loop with bounds checks.
// Every output element is bias + its taps in (ky, kx) order, on every
// path, so the vector and scalar columns agree.
#include <algorithm>

#include "kernels/optimized/conv.h"
#include "runtime/platform/threadpool.h"

namespace ember::opt {
namespace {

// The even lanes of the concatenation a:b.
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define EMBER_OPT_HAVE_SHUFFLE 1
#endif
#endif
#ifdef EMBER_OPT_HAVE_SHUFFLE
EMBER_OPT_INLINE void even_lanes(const VecF4& a, const VecF4& b, VecF4& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6);
}
EMBER_OPT_INLINE void even_lanes(const VecF8& a, const VecF8& b, VecF8& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
}
EMBER_OPT_INLINE void even_lanes(const VecF16& a, const VecF16& b, VecF16& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
}
#else
template <typename V>
EMBER_OPT_INLINE void even_lanes(const V& a, const V& b, V& out) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  for (size_t i = 0; i < W / 2; ++i) out[i] = a[2 * i], out[i + W / 2] = b[2 * i];
}
#endif

// Vector of input at columns x, x + stride, ... (stride 1 or 2).
template <typename V>
EMBER_OPT_INLINE void load_input(const float* p, size_t stride, V& out) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  if (stride == 1) return load_vec(out, p);
  V a, b;
  load_vec(a, p);
  load_vec(b, p + W);
  even_lanes(a, b, out);
}

// Output column ox, every tap, with bounds checks.
inline float edge_column(const Conv2dShape& s, const float* ip, const float* w, float init,
                         int64_t iy_top, size_t ox) {
  float acc = init;
  const int64_t ix0 = int64_t(ox * s.stride_w) - int64_t(s.pad_w);
  for (size_t ky = 0; ky < s.kernel_h; ++ky) {
    const int64_t iy = iy_top + int64_t(ky * s.dilation_h);
    if (iy < 0 || iy >= int64_t(s.in_h)) continue;
    for (size_t kx = 0; kx < s.kernel_w; ++kx) {
      const int64_t ix = ix0 + int64_t(kx * s.dilation_w);
      if (ix < 0 || ix >= int64_t(s.in_w)) continue;
      acc += w[ky * s.kernel_w + kx] * ip[iy * int64_t(s.in_w) + ix];
    }
  }
  return acc;
}

template <typename V>
EMBER_OPT_INLINE void depthwise_plane(const Conv2dShape& s, const float* ip, const float* w,
                                      float init, float* op) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  // Columns [lo, hi) have every horizontal tap inside the row; the vector
  // path also needs its widest read (2W floats at stride 2) inside it.
  const size_t span = (s.kernel_w - 1) * s.dilation_w;
  size_t lo = (s.pad_w + s.stride_w - 1) / s.stride_w;
  size_t hi = 0;
  if (s.in_w + s.pad_w > span) hi = std::min(s.out_w, (s.in_w + s.pad_w - span - 1) / s.stride_w + 1);
  const bool vector = s.stride_w <= 2;
  const size_t reach = s.stride_w == 2 ? 2 * W : W;  // floats a vector load touches
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    float* orow = op + oy * s.out_w;
    const int64_t iy_top = int64_t(oy * s.stride_h) - int64_t(s.pad_h);
    size_t ox = 0;
    for (; ox < std::min(lo, s.out_w); ++ox) orow[ox] = edge_column(s, ip, w, init, iy_top, ox);
    if (vector) {
      for (; ox + W <= hi; ox += W) {
        const size_t ix0 = ox * s.stride_w - s.pad_w;
        if (ix0 + span + reach > s.in_w) break;
        V acc = V{} + init;
        for (size_t ky = 0; ky < s.kernel_h; ++ky) {
          const int64_t iy = iy_top + int64_t(ky * s.dilation_h);
          if (iy < 0 || iy >= int64_t(s.in_h)) continue;
          const float* irow = ip + iy * int64_t(s.in_w) + ix0;
          for (size_t kx = 0; kx < s.kernel_w; ++kx) {
            V x;
            load_input(irow + kx * s.dilation_w, s.stride_w, x);
            acc += x * w[ky * s.kernel_w + kx];
          }
        }
        store_vec(orow + ox, acc);
      }
    }
    for (; ox < s.out_w; ++ox) orow[ox] = edge_column(s, ip, w, init, iy_top, ox);
  }
}

struct DwRun {
  const Conv2dShape* s;
  const float *in, *weight, *bias;
  float* out;
  void (*plane)(const Conv2dShape&, const float*, const float*, float, float*);
};

void plane_baseline(const Conv2dShape& s, const float* ip, const float* w, float init,
                    float* op) {
  depthwise_plane<VecF4>(s, ip, w, init, op);
}
#if EMBER_OPT_X86_DISPATCH
EMBER_OPT_TARGET_AVX2 void plane_avx2(const Conv2dShape& s, const float* ip, const float* w,
                                      float init, float* op) {
  depthwise_plane<VecF8>(s, ip, w, init, op);
}
EMBER_OPT_TARGET_AVX512 void plane_avx512(const Conv2dShape& s, const float* ip,
                                          const float* w, float init, float* op) {
  depthwise_plane<VecF16>(s, ip, w, init, op);
}
#endif

}  // namespace

void conv2d_depthwise_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, Isa isa) {
  DwRun c{&s, in, weight, bias, out, plane_baseline};
#if EMBER_OPT_X86_DISPATCH
  if (isa == Isa::kAvx512) c.plane = plane_avx512;
  if (isa == Isa::kAvx2) c.plane = plane_avx2;
#endif
  (void)isa;
  const size_t planes = s.batch * s.out_c;
  const size_t taps = s.kernel_h * s.kernel_w, mult = s.out_c / s.in_c;
  auto one = [&c, taps, mult](size_t t) {
    const Conv2dShape& s = *c.s;
    const size_t n = t / s.out_c, oc = t % s.out_c;
    const float* ip = c.in + (n * s.in_c + oc / mult) * s.in_h * s.in_w;
    c.plane(s, ip, c.weight + oc * taps, c.bias ? c.bias[oc] : 0.0f,
            c.out + t * s.out_h * s.out_w);
  };
  if (planes * s.out_h * s.out_w * taps < kInlineMacs) {
    for (size_t t = 0; t < planes; ++t) one(t);
    return;
  }
  parallel_for(planes, [&one](size_t t) { one(t); });
}

}  // namespace ember::opt
