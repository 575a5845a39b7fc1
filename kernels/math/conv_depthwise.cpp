// Depthwise NCHW convolution (conv.h). Nothing copies a whole plane: each
// worker keeps a ring of the few input rows its output rows read. A row
// enters the ring once per plane, a little before it is needed, split by
// the horizontal stride S into S zero-bordered "phase lines" (column c of
// the padded row goes to line c % S at index c / S), so every tap of a
// vector of output pixels is one contiguous load at any stride, and no
// load needs a bounds check. Rows above and below the input read a slot
// of zeros. 3x3 windows (stride 1 or 2 down) compute four output rows at
// a time in registers; other windows a row at a time. Every output
// element is bias plus its taps in (ky, kx) order, padding taps included
// as zeros.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "kernels/math/conv.h"
#include "kernels/math/task_queue.h"
#include "kernels/math/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

// One output plane's bias and epilogue (conv.h's ConvEpilogue for its
// channel): out = clamp((acc + bias) * scale + shift, lo, hi).
struct PlaneTail {
  float bias = 0.0f, scale = 1.0f, shift = 0.0f, lo = -INFINITY, hi = INFINITY;
  bool affine = false;
};

// The same, each value in every lane, read once per plane (kept in
// registers: the output stores could alias a PlaneTail, not a local).
template <typename V>
struct LaneTail {
  V bias, scale, shift, lo, hi;
  bool affine;
  explicit LaneTail(const PlaneTail& t)
      : bias(V{} + t.bias), scale(V{} + t.scale), shift(V{} + t.shift), lo(V{} + t.lo),
        hi(V{} + t.hi), affine(t.affine) {}
};

template <typename V>
EMBER_MATH_INLINE void finish(V& acc, const LaneTail<V>& t) {
  if (t.affine) acc = acc * t.scale + t.shift;
  acc = acc < t.lo ? t.lo : acc;
  acc = acc > t.hi ? t.hi : acc;
}

// Floats per vector of each ISA's instantiation.
size_t lanes(Isa isa) {
  return isa == Isa::kAvx512 ? 16 : isa == Isa::kAvx2 || isa == Isa::kNeon ? 8 : 4;
}

// The vector type of half the width (for what is left after wide vectors).
template <typename V>
struct Half;
template <>
struct Half<VecF16> {
  using type = VecF8;
};
template <>
struct Half<VecF8> {
  using type = VecF4;
};

// What one call works out once, for vectors of a given width. A worker's
// workspace holds `slots` ring slots of `slot` floats (stride_w phase
// lines of `line` floats each), one more slot that stays zero (the rows
// above and below the input), then one line of accumulators (used by
// windows other than 3x3).
struct Plan {
  const Conv2dShape* s = nullptr;
  size_t line = 0, slot = 0, slots = 0;
  size_t ahead = 0;           // rows loaded before an output row needs them
  bool rows_3x3 = false;      // plane_3x3 takes it
  size_t tap1 = 0, tap2 = 0;  // tap_offset(1), tap_offset(2) (3x3 windows)
  size_t floats() const { return (slots + 1) * slot + line; }
  const float* zeros(const float* ws) const { return ws + slots * slot; }
  float* accumulators(float* ws) const { return ws + (slots + 1) * slot; }
  // Where tap column kx starts within a slot: padded column kx * dilation
  // of output pixel 0 (pixel ox adds ox to the index, in the same line).
  size_t tap_offset(size_t kx) const {
    const size_t c = kx * s->dilation_w;
    return c % s->stride_w * line + c / s->stride_w;
  }
};

// Output rows a 3x3 plane computes together (their sums are independent,
// so their multiply-adds overlap; one sum is a chain of nine).
constexpr size_t kBlockRows = 4;

Plan make_plan(const Conv2dShape& s, size_t lanes) {
  // A row's vectors read up to the last vector's end plus the furthest
  // tap's index; the copied input reaches index (in_w - 1 + pad_w) / S.
  const size_t vec_end = (s.out_w + lanes - 1) / lanes * lanes;
  const size_t read = vec_end + (s.kernel_w - 1) * s.dilation_w / s.stride_w;
  const size_t written = (s.in_w - 1 + s.pad_w) / s.stride_w + 1;
  Plan p;
  p.s = &s;
  p.line = (std::max(read, written) + 15) / 16 * 16;
  p.slot = s.stride_w * p.line;
  // The rows a block of output rows spans, and one block's more loaded
  // early: a row's loads then find its copy settled in the cache, not
  // still in flight from the stores (which would stall them).
  p.rows_3x3 = s.kernel_h == 3 && s.kernel_w == 3 && s.dilation_h == 1 && s.stride_h <= 2;
  const size_t block = p.rows_3x3 ? kBlockRows : 1;
  p.ahead = block * s.stride_h;
  p.slots = (block - 1) * s.stride_h + (s.kernel_h - 1) * s.dilation_h + 1 + p.ahead;
  p.tap1 = p.tap_offset(1), p.tap2 = p.tap_offset(2);
  return p;
}

// n floats from src to dst: whole vectors, the last one overlapping the
// one before; shorter runs with narrower vectors, then one at a time.
template <typename V>
EMBER_MATH_INLINE void copy_floats(float* dst, const float* src, size_t n) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  if (n >= W) {
    V v;
    for (size_t i = 0; i + W < n; i += W) load_vec(v, src + i), store_vec(dst + i, v);
    load_vec(v, src + n - W), store_vec(dst + n - W, v);
    return;
  }
  if constexpr (W > 4) return copy_floats<typename Half<V>::type>(dst, src, n);
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
}

// Even columns of src[c, c + 2W) to even[c / 2], odd ones to odd[c / 2].
template <typename V>
EMBER_MATH_INLINE void split_chunk(const float* src, size_t c, float* even, float* odd) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  V a, b, e, o;
  load_vec(a, src + c);
  load_vec(b, src + c + W);
  even_lanes(a, b, e);
  odd_lanes(a, b, o);
  store_vec(even + c / 2, e);
  store_vec(odd + c / 2, o);
}

// Even columns of src[0, n) to even[c / 2], odd ones to odd[c / 2]: whole
// chunks, the last one overlapping the one before (at an even column, so
// an odd n leaves its last column); shorter rows with narrower vectors.
template <typename V>
EMBER_MATH_INLINE void split_pairs(const float* src, size_t n, float* even, float* odd) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  if (n < 2 * W) {
    if constexpr (W > 4) return split_pairs<typename Half<V>::type>(src, n, even, odd);
    for (size_t c = 0; c < n; c += 2) even[c / 2] = src[c];
    for (size_t c = 1; c < n; c += 2) odd[c / 2] = src[c];
    return;
  }
  size_t c = 0;
  for (; c + 2 * W <= n; c += 2 * W) split_chunk<V>(src, c, even, odd);
  if (c < n) split_chunk<V>(src, (n - 2 * W) & ~size_t(1), even, odd);
  if (n % 2) even[n / 2] = src[n - 1];
}

// Input row `src` into its phase lines at `dst`. Every call writes the
// same positions, so the zeros around them (set once per worker) stay.
template <typename V>
EMBER_MATH_INLINE void fill_slot(const Plan& p, const float* src, float* dst) {
  const Conv2dShape& s = *p.s;
  const size_t S = s.stride_w, n = s.in_w;
  if (S == 1) return copy_floats<V>(dst + s.pad_w, src, n);
  if (S == 2) {
    // Input column c sits at padded column c + pad_w.
    float* even = dst + s.pad_w % 2 * p.line + s.pad_w / 2;
    float* odd = dst + (s.pad_w + 1) % 2 * p.line + (s.pad_w + 1) / 2;
    return split_pairs<V>(src, n, even, odd);
  }
  // Larger strides a column at a time, stepping phase and index together.
  size_t phase = s.pad_w % S, at = s.pad_w / S;
  for (size_t c = 0; c < n; ++c) {
    dst[phase * p.line + at] = src[c];
    if (++phase == S) phase = 0, ++at;
  }
}

// Which input rows of the current plane the ring holds: those below
// `next`, the last `slots` of them; row `next` goes to slot `slot`.
struct RingState {
  size_t next = 0, slot = 0;
};

// Brings the plane's input rows up to `last` into the ring, in order from
// row 0, each into the slot after the one before. Callers reach at most
// `ahead` rows past the rows they read now, so a row is overwritten only
// once no output row still to come reads it.
template <typename V>
EMBER_MATH_INLINE void load_rows(const Plan& p, const float* ip, float* ws, ptrdiff_t last,
                                RingState& r) {
  const Conv2dShape& s = *p.s;
  const size_t end = size_t(std::min(std::max(last + 1, ptrdiff_t(0)), ptrdiff_t(s.in_h)));
  for (; r.next < end; ++r.next) {
    fill_slot<V>(p, ip + r.next * s.in_w, ws + r.slot * p.slot);
    if (++r.slot == p.slots) r.slot = 0;
  }
}

// The slot holding input row y (loaded, and one of the last `slots`
// loaded), or the zero slot outside the plane.
inline const float* slot_of(const Plan& p, const RingState& r, const float* ws, ptrdiff_t y) {
  if (y < 0 || y >= ptrdiff_t(p.s->in_h)) return p.zeros(ws);
  size_t k = r.slot + p.slots - (r.next - size_t(y));
  if (k >= p.slots) k -= p.slots;
  return ws + k * p.slot;
}

// Stores a vector of output pixels at `o`. Lanes past a row narrower
// than a vector spill into the rows after it, which store their own
// values later; nothing is written past the plane's end (the next plane
// may be another worker's).
template <typename V>
EMBER_MATH_INLINE void store_pixels(float* o, const float* plane_end, const V& v) {
  store_first(o, v, size_t(plane_end - o));
}

// Where the last vector of a row starts: flush with the row's end when
// the row holds a vector (the lanes it shares with the vector before get
// the same values again), else at 0.
inline size_t last_vector(size_t out_w, size_t lanes) {
  return out_w > lanes ? out_w - lanes : 0;
}

// Output rows [oy, oy + R) of a 3x3 plane at vertical stride SH and
// dilation 1: q[j] is the slot of input row top + j. R independent sums
// per vector position (one sum alone is a chain of nine multiply-adds).
template <typename V, size_t R, size_t SH>
EMBER_MATH_INLINE void rows_3x3(const Plan& p, const float* const* q, const V* k,
                               const LaneTail<V>& tail, float* orow, const float* end) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const size_t out_w = p.s->out_w, last = last_vector(out_w, W);
  const size_t o1 = p.tap1, o2 = p.tap2;
  for (size_t x = 0;; x = std::min(x + W, last)) {
    V acc[R];
#pragma GCC unroll 4
    for (size_t i = 0; i < R; ++i) acc[i] = tail.bias;
#pragma GCC unroll 3
    for (size_t ky = 0; ky < 3; ++ky) {
#pragma GCC unroll 4
      for (size_t i = 0; i < R; ++i) {
        const float* r = q[i * SH + ky] + x;
        V t;
        load_vec(t, r), acc[i] += t * k[3 * ky];
        load_vec(t, r + o1), acc[i] += t * k[3 * ky + 1];
        load_vec(t, r + o2), acc[i] += t * k[3 * ky + 2];
      }
    }
#pragma GCC unroll 4
    for (size_t i = 0; i < R; ++i) {
      finish(acc[i], tail);
      store_pixels(orow + i * out_w + x, end, acc[i]);
    }
    if (x == last) break;
  }
}

// rows_3x3 for n rows, n <= R (the plane's last block may be short).
template <typename V, size_t R, size_t SH>
EMBER_MATH_INLINE void rows_3x3_n(size_t n, const Plan& p, const float* const* q, const V* k,
                                 const LaneTail<V>& tail, float* orow, const float* end) {
  if (n == R || R == 1) return rows_3x3<V, R, SH>(p, q, k, tail, orow, end);
  if constexpr (R > 1) rows_3x3_n<V, R - 1, SH>(n, p, q, k, tail, orow, end);
}

// The common 3x3 window at vertical stride SH (1 or 2) and dilation 1,
// any horizontal stride and padding: weights and sums in registers, four
// output rows at a time.
template <typename V, size_t SH>
EMBER_MATH_INLINE void plane_3x3(const Plan& p, const float* ip, const float* w,
                                const PlaneTail& pt, float* ws, float* op) {
  constexpr size_t kRows = kBlockRows, kSpan = (kRows - 1) * SH + 3;
  const Conv2dShape& s = *p.s;
  V k[9];
  for (size_t i = 0; i < 9; ++i) k[i] = V{} + w[i];
  const LaneTail<V> tail(pt);
  const float* end = op + s.out_h * s.out_w;
  RingState ring;
  for (size_t oy = 0; oy < s.out_h; oy += kRows) {
    const size_t n = std::min(kRows, s.out_h - oy);
    const ptrdiff_t top = ptrdiff_t(oy * SH) - ptrdiff_t(s.pad_h);
    load_rows<V>(p, ip, ws, top + ptrdiff_t(kSpan - 1 + p.ahead), ring);
    const float* q[kSpan];
    for (size_t j = 0; j < kSpan; ++j) q[j] = slot_of(p, ring, ws, top + ptrdiff_t(j));
    float* orow = op + oy * s.out_w;
    rows_3x3_n<V, kRows, SH>(n, p, q, k, tail, orow, end);
  }
}

// Any other window: the output row is accumulated in the workspace's
// accumulator line, one tap at a time over the whole row (each pixel
// still gets bias, then its taps in (ky, kx) order).
template <typename V>
EMBER_MATH_INLINE void plane_any(const Plan& p, const float* ip, const float* w,
                                const PlaneTail& pt, float* ws, float* op) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const Conv2dShape& s = *p.s;
  const LaneTail<V> tail(pt);
  float* acc = p.accumulators(ws);
  const size_t vec_end = (s.out_w + W - 1) / W * W;
  const ptrdiff_t dh = ptrdiff_t(s.dilation_h);
  const float* end = op + s.out_h * s.out_w;
  RingState ring;
  for (size_t oy = 0; oy < s.out_h; ++oy) {
    const ptrdiff_t top = ptrdiff_t(oy * s.stride_h) - ptrdiff_t(s.pad_h);
    const ptrdiff_t bottom = top + ptrdiff_t(s.kernel_h - 1) * dh;
    load_rows<V>(p, ip, ws, bottom + ptrdiff_t(p.ahead), ring);
    for (size_t x = 0; x < vec_end; x += W) store_vec(acc + x, tail.bias);
    for (size_t ky = 0; ky < s.kernel_h; ++ky) {
      const float* row = slot_of(p, ring, ws, top + ptrdiff_t(ky) * dh);
      for (size_t kx = 0; kx < s.kernel_w; ++kx) {
        const float* src = row + p.tap_offset(kx);
        const V wv = V{} + w[ky * s.kernel_w + kx];
        for (size_t x = 0; x < vec_end; x += W) {
          V a, t;
          load_vec(a, acc + x);
          load_vec(t, src + x);
          a += t * wv;
          store_vec(acc + x, a);
        }
      }
    }
    float* orow = op + oy * s.out_w;
    for (size_t x = 0; x < s.out_w; x += W) {
      V a;
      load_vec(a, acc + x);
      finish(a, tail);
      store_pixels(orow + x, end, a);
    }
  }
}

using PlaneFn = void (*)(const Plan&, const float*, const float*, const PlaneTail&, float*,
                         float*);

template <typename V>
EMBER_MATH_INLINE void plane_isa(const Plan& p, const float* ip, const float* w,
                                const PlaneTail& tail, float* ws, float* op) {
  if (p.rows_3x3 && p.s->stride_h == 1) return plane_3x3<V, 1>(p, ip, w, tail, ws, op);
  if (p.rows_3x3 && p.s->stride_h == 2) return plane_3x3<V, 2>(p, ip, w, tail, ws, op);
  plane_any<V>(p, ip, w, tail, ws, op);
}

void plane_baseline(const Plan& p, const float* ip, const float* w, const PlaneTail& tail,
                    float* ws, float* op) {
  plane_isa<VecF4>(p, ip, w, tail, ws, op);
}
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void plane_avx2(const Plan& p, const float* ip, const float* w,
                                      const PlaneTail& tail, float* ws, float* op) {
  plane_isa<VecF8>(p, ip, w, tail, ws, op);
}
EMBER_MATH_TARGET_AVX512 void plane_avx512(const Plan& p, const float* ip, const float* w,
                                          const PlaneTail& tail, float* ws, float* op) {
  plane_isa<VecF16>(p, ip, w, tail, ws, op);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void plane_neon(const Plan& p, const float* ip, const float* w, const PlaneTail& tail, float* ws,
                float* op) {
  plane_isa<VecF8>(p, ip, w, tail, ws, op);
}
#endif

PlaneTail plane_tail(const float* bias, const ConvEpilogue* epilogue, size_t oc) {
  PlaneTail tail;
  tail.bias = bias ? bias[oc] : 0.0f;
  if (epilogue) {
    tail.lo = epilogue->lo, tail.hi = epilogue->hi;
    if (epilogue->scale) {
      tail.affine = true, tail.scale = epilogue->scale[oc], tail.shift = epilogue->shift[oc];
    }
  }
  return tail;
}

}  // namespace

size_t conv2d_depthwise_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa) {
  return std::max<size_t>(workers, 1) * make_plan(s, lanes(isa)).floats();
}

void conv2d_depthwise_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, float* workspace, size_t workers,
                               Isa isa, const ConvEpilogue* epilogue) {
  PlaneFn plane = plane_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) plane = plane_avx512;
  if (isa == Isa::kAvx2) plane = plane_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) plane = plane_neon;
#endif
  const Plan plan = make_plan(s, lanes(isa));
  const size_t planes = s.batch * s.out_c;
  const size_t taps = s.kernel_h * s.kernel_w, mult = s.out_c / s.in_c;
  // Worker w takes planes one at a time (task_queue.h), with its own ring.
  workers = std::max<size_t>(1, std::min(workers, planes));
  if (planes * s.out_h * s.out_w * taps < kInlineMacs) workers = 1;
  TaskQueue queue(planes, workers);
  auto worker = [&](size_t w) {
    float* ws = workspace + w * plan.floats();
    std::fill(ws, ws + plan.floats(), 0.0f);
    for (size_t t; queue.take(w, &t);) {
      const size_t n = t / s.out_c, oc = t % s.out_c;  // image and channel of plane t
      const size_t ic = mult == 1 ? oc : oc / mult;
      plane(plan, in + (n * s.in_c + ic) * s.in_h * s.in_w, weight + oc * taps,
            plane_tail(bias, epilogue, oc), ws, out + t * s.out_h * s.out_w);
    }
  };
  if (workers == 1) return worker(0);
  parallel_for(workers, [&worker](size_t w) { worker(w); });
}

}  // namespace ember::math
