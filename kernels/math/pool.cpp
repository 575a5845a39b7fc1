// Max pooling with indices (pool.h).
#include "kernels/math/pool.h"
#include "kernels/math/vec_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/platform/threadpool.h"

namespace ember::math {
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

// int64 vectors with as many lanes as VecI4, VecI8, VecI16.
typedef int64_t VecL4 __attribute__((vector_size(32)));
typedef int64_t VecL8 __attribute__((vector_size(64)));
typedef int64_t VecL16 __attribute__((vector_size(128)));

// One output row: its windows start at row y0 (above the plane at the
// top border) and take the tap rows [ky0, ky1), those inside the plane.
struct RowSpan {
  int64_t y0;
  size_t ky0, ky1;
};

// W outputs of one row from the window whose top-left is (r.y0, x0), lane
// l's window lane_x[l] = l * stride_w columns further; the first n lanes
// are stored (lanes past the row's end carry junk the caller overwrites).
// Every load lies inside the plane (the caller checked). Without kEdge
// the windows of the lanes the caller keeps lie inside the row; with it
// (dilation 1 only), taps left or right of the row read as -inf and each
// lane starts from its first tap inside, so those taps never win.
//
// Each lane keeps its first strict maximum among the non-NaN taps and,
// apart, its last NaN, which wins if there is one: in scan order, that is
// the element the scalar loop picks.
//
// Each mask comes from a single comparison or from integer arithmetic:
// GCC 12 expands an OR of two comparisons of 512-bit vectors lane by lane
// here, as this template itself is not compiled for AVX-512.
template <typename VF, typename VI, typename VL, bool kEdge>
EMBER_MATH_INLINE void vector_windows(const MaxPool2dShape& s, const float* ip, const RowSpan& r,
                                     int64_t x0, size_t n, const VI& lane_x, float* out,
                                     int64_t* index) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  const int32_t in_w = int32_t(s.in_w), dw = int32_t(s.dilation_w);
  // Offsets of the best element and of the last NaN (-1: none) from the
  // top-left element of the lane's window.
  VI at = VI{} + int32_t(r.ky0 * s.dilation_h * s.in_w), nan_at = VI{} - 1;
  if (kEdge) {
    const VI left = -(lane_x + int32_t(x0));  // columns left of the row
    at += left > 0 ? left : VI{};
  }
  VF best = VF{} - INFINITY, nan_value = best, v;
  for (size_t ky = r.ky0; ky < r.ky1; ++ky) {
    const float* p = ip + (r.y0 + int64_t(ky * s.dilation_h)) * in_w + x0;
    VI off = VI{} + int32_t(ky * s.dilation_h * s.in_w);
    for (size_t kx = 0; kx < s.kernel_w; ++kx, p += dw, off += dw) {
      load_strided(p, s.stride_w, v);
      if (kEdge) {
        // All ones where neither col nor in_w - 1 - col is negative.
        const VI col = lane_x + int32_t(x0 + int64_t(kx));
        const VI inside = ~((col | (in_w - 1 - col)) >> 31);
        v = inside ? v : VF{} - INFINITY;
      }
      const VI take = v > best;
      best = take ? v : best;
      at = take ? off : at;
      const VI nan = v != v;
      nan_value = nan ? v : nan_value;
      nan_at = nan ? off : nan_at;
    }
  }
  const VI has_nan = nan_at >= 0;
  best = has_nan ? nan_value : best;
  at = has_nan ? nan_at : at;
  const VL idx = __builtin_convertvector(at + lane_x, VL) + (r.y0 * int64_t(in_w) + x0);
  if (n == W) {
    store_vec(out, best);
    std::memcpy(index, &idx, sizeof(idx));
  } else {
    store_first(out, best, n);
    std::memcpy(index, &idx, n * sizeof(int64_t));
  }
}

// One plane, row by row.
template <typename VF, typename VI, typename VL>
EMBER_MATH_INLINE void pool_plane(const MaxPool2dShape& s, const float* ip, float* op,
                                 int64_t* xp) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  const int64_t in_w = int64_t(s.in_w), plane = int64_t(s.in_h * s.in_w);
  const int64_t sw = int64_t(s.stride_w), pw = int64_t(s.pad_w);
  const int64_t span_w = int64_t((s.kernel_w - 1) * s.dilation_w);  // last tap's column
  const int64_t reach = span_w + sw * int64_t(W);  // floats a vector reads from a tap row
  // Vectors take strides 1 and 2, and offsets inside a window that fit
  // int32 lanes; with dilation 1 also the border columns.
  const bool vec = s.stride_w <= 2 &&
                   int64_t(s.kernel_h * s.dilation_h + 1) * in_w + reach < (int64_t(1) << 30);
  const bool edges = s.dilation_w == 1;
  // Columns whose windows lie inside the row: [lo, hi).
  const size_t lo = size_t((pw + sw - 1) / sw);
  const size_t hi = in_w + pw > span_w
                        ? std::min(s.out_w, size_t((in_w + pw - span_w - 1) / sw + 1))
                        : 0;
  VI lane_x;
  for (size_t l = 0; l < W; ++l) lane_x[l] = int32_t(l * s.stride_w);
  const int64_t dh = int64_t(s.dilation_h);
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    float* orow = op + oy * s.out_w;
    int64_t* xrow = xp + oy * s.out_w;
    RowSpan r;
    r.y0 = int64_t(oy * s.stride_h) - int64_t(s.pad_h);
    r.ky0 = r.y0 < 0 ? size_t((-r.y0 + dh - 1) / dh) : 0;
    r.ky1 = std::min(s.kernel_h, size_t((int64_t(s.in_h) - r.y0 + dh - 1) / dh));
    // Where the first and last tap rows start, in the plane.
    const int64_t top = (r.y0 + int64_t(r.ky0) * dh) * in_w;
    const int64_t bottom = (r.y0 + int64_t(r.ky1 - 1) * dh) * in_w;
    size_t ox = 0;
    if (vec) {
      // The left border goes one by one unless a vector can mask it and
      // read left of the row without leaving the plane (not in row 0).
      const size_t first = edges && top >= pw ? 0 : std::min(lo, s.out_w);
      const size_t last = edges ? s.out_w : hi;
      for (; ox < first; ++ox) scalar_window(s, ip, oy, ox, orow + ox, xrow + ox);
      // Vectors over [first, last), the last one partial, until one would
      // read past the plane's end (bottom row).
      while (ox < last) {
        const int64_t x0 = int64_t(ox) * sw - pw;
        if (bottom + x0 + reach > plane) break;
        const size_t n = std::min(W, last - ox);
        // A partial vector stores all W lanes where the plane's outputs
        // go on that far: the extra ones land on outputs written again
        // later (the rest of this row, or the next one).
        const size_t stored = (oy * s.out_w + ox + W <= s.out_h * s.out_w) ? W : n;
        if (x0 < 0 || x0 + int64_t(n - 1) * sw + span_w >= in_w) {
          vector_windows<VF, VI, VL, true>(s, ip, r, x0, stored, lane_x, orow + ox, xrow + ox);
        } else {
          vector_windows<VF, VI, VL, false>(s, ip, r, x0, stored, lane_x, orow + ox, xrow + ox);
        }
        ox += n;
      }
    }
    for (; ox < s.out_w; ++ox) scalar_window(s, ip, oy, ox, orow + ox, xrow + ox);
  }
}

using PlaneFn = void (*)(const MaxPool2dShape&, const float*, float*, int64_t*);

void plane_baseline(const MaxPool2dShape& s, const float* ip, float* op, int64_t* xp) {
  pool_plane<VecF4, VecI4, VecL4>(s, ip, op, xp);
}
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void plane_avx2(const MaxPool2dShape& s, const float* ip, float* op,
                                      int64_t* xp) {
  pool_plane<VecF8, VecI8, VecL8>(s, ip, op, xp);
}
EMBER_MATH_TARGET_AVX512 void plane_avx512(const MaxPool2dShape& s, const float* ip, float* op,
                                          int64_t* xp) {
  pool_plane<VecF16, VecI16, VecL16>(s, ip, op, xp);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void plane_neon(const MaxPool2dShape& s, const float* ip, float* op, int64_t* xp) {
  pool_plane<VecF8, VecI8, VecL8>(s, ip, op, xp);
}
#endif

}  // namespace

void max_pool2d_f32(const MaxPool2dShape& s, const float* in, float* out, int64_t* indices,
                    Isa isa) {
  PlaneFn fn = plane_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = plane_avx512;
  if (isa == Isa::kAvx2) fn = plane_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = plane_neon;
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

}  // namespace ember::math
