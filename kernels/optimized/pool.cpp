// Max pooling with indices (pool.h).
#include "kernels/optimized/pool.h"
#include "kernels/optimized/vec_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/platform/threadpool.h"


namespace ember::opt {
namespace {

// Output (oy, ox) by the one-pass rule, with bounds.
inline void scalar_window(const MaxPool2dShape& s, const float* ip, size_t oy, size_t ox,
                          float* out, int64_t* index) {
  const int64_t y0 = int64_t(oy * s.stride_h) - int64_t(s.pad_h);
  const int64_t x0 = int64_t(ox * s.stride_w) - int64_t(s.pad_w);
  float best = -INFINITY;
  int64_t best_index = -1;
  for (size_t ky = 0; ky < s.kernel_h; ++ky) {
    const int64_t y = y0 + int64_t(ky * s.dilation_h);
    if (y < 0 || y >= int64_t(s.in_h)) continue;
    for (size_t kx = 0; kx < s.kernel_w; ++kx) {
      const int64_t x = x0 + int64_t(kx * s.dilation_w);
      if (x < 0 || x >= int64_t(s.in_w)) continue;
      const int64_t i = y * int64_t(s.in_w) + x;
      const float v = ip[i];
      if (best_index < 0 || v > best || v != v) best = v, best_index = i;
    }
  }
  *out = best;
  *index = best_index;
}

// W outputs of row oy from column ox, every window inside the plane.
template <typename VF, typename VI>
EMBER_OPT_INLINE void vector_windows(const MaxPool2dShape& s, const float* ip, size_t oy,
                                     size_t ox, float* out, int64_t* index) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  const size_t y0 = oy * s.stride_h - s.pad_h, x0 = ox * s.stride_w - s.pad_w;
  VF best = VF{} - INFINITY, v;
  VI nan{};
  for (size_t ky = 0; ky < s.kernel_h; ++ky) {
    const float* row = ip + (y0 + ky) * s.in_w + x0;
    for (size_t kx = 0; kx < s.kernel_w; ++kx) {
      load_strided(row + kx, s.stride_w, v);
      best = v > best ? v : best;
      nan |= v != v;
    }
  }
  // Lane l's first position (y, x) with a value equal to its maximum, or
  // its last NaN; offsets from the window's top-left element.
  VI first = VI{} - 1, last_nan = VI{} - 1;
  for (size_t ky = 0; ky < s.kernel_h; ++ky) {
    const float* row = ip + (y0 + ky) * s.in_w + x0;
    for (size_t kx = 0; kx < s.kernel_w; ++kx) {
      load_strided(row + kx, s.stride_w, v);
      const int32_t off = int32_t(ky * s.in_w + kx);
      first = (first < 0) & (v == best) ? VI{} + off : first;
      last_nan = v != v ? VI{} + off : last_nan;
    }
  }
  const VI pick = nan != 0 ? last_nan : first;
  VF result = nan != 0 ? VF{} + NAN : best;
  float vals[W];
  int32_t offs[W];
  store_vec(vals, result);
  std::memcpy(offs, &pick, sizeof(offs));
  const int64_t base = int64_t(y0 * s.in_w + x0);
  for (size_t l = 0; l < W; ++l) {
    out[l] = vals[l];
    index[l] = base + int64_t(l * s.stride_w) + offs[l];
  }
}

template <typename VF, typename VI>
EMBER_OPT_INLINE void pool_plane(const MaxPool2dShape& s, const float* ip, float* op,
                                 int64_t* xp) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  const bool vec = s.dilation_h == 1 && s.dilation_w == 1 && s.stride_w <= 2;
  // A vector of W outputs may start at columns [lo, hi): its first window
  // starts inside the row and its loads (W floats from each tap, 2W at
  // stride 2), which cover every lane's window, end inside it.
  const size_t lo = (s.pad_w + s.stride_w - 1) / s.stride_w;
  size_t hi = 0;
  const size_t reach = s.stride_w == 2 ? 2 * W : W;
  if (s.in_w + s.pad_w >= s.kernel_w - 1 + reach) {
    hi = (s.in_w + s.pad_w - (s.kernel_w - 1) - reach) / s.stride_w + 1;
  }
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    float* orow = op + oy * s.out_w;
    int64_t* xrow = xp + oy * s.out_w;
    const bool rows_inside = oy * s.stride_h >= s.pad_h &&
                             oy * s.stride_h - s.pad_h + s.kernel_h <= s.in_h;
    size_t ox = 0;
    if (vec && rows_inside && lo < hi) {
      for (; ox < lo; ++ox) scalar_window(s, ip, oy, ox, orow + ox, xrow + ox);
      for (; ox < hi && ox + W <= s.out_w; ox += W) {
        vector_windows<VF, VI>(s, ip, oy, ox, orow + ox, xrow + ox);
      }
    }
    for (; ox < s.out_w; ++ox) scalar_window(s, ip, oy, ox, orow + ox, xrow + ox);
  }
}

using PlaneFn = void (*)(const MaxPool2dShape&, const float*, float*, int64_t*);

void plane_baseline(const MaxPool2dShape& s, const float* ip, float* op, int64_t* xp) {
  pool_plane<VecF4, VecI4>(s, ip, op, xp);
}
#if EMBER_OPT_X86_DISPATCH
EMBER_OPT_TARGET_AVX2 void plane_avx2(const MaxPool2dShape& s, const float* ip, float* op,
                                      int64_t* xp) {
  pool_plane<VecF8, VecI8>(s, ip, op, xp);
}
EMBER_OPT_TARGET_AVX512 void plane_avx512(const MaxPool2dShape& s, const float* ip, float* op,
                                          int64_t* xp) {
  pool_plane<VecF16, VecI16>(s, ip, op, xp);
}
#endif

}  // namespace

void max_pool2d_f32(const MaxPool2dShape& s, const float* in, float* out, int64_t* indices,
                    Isa isa) {
  PlaneFn fn = plane_baseline;
#if EMBER_OPT_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = plane_avx512;
  if (isa == Isa::kAvx2) fn = plane_avx2;
#endif
  (void)isa;
  const size_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
  auto task = [&](size_t p) {
    fn(s, in + p * in_plane, out + p * out_plane, indices + p * out_plane);
  };
  if (s.planes * out_plane * s.kernel_h * s.kernel_w < kInlineMacs) {
    for (size_t p = 0; p < s.planes; ++p) task(p);
    return;
  }
  parallel_for(s.planes, [&task](size_t p) { task(p); });
}

}  // namespace ember::opt
