// Softmax and log-softmax over one dim (vmath.h), on the vector exp of
// vmath_impl.h. Rows along the last dim (inner == 1) are reduced a vector
// at a time; for inner > 1, each vector holds W neighbouring columns and
// walks the dim with stride `inner`. Partial vectors (row tails, the last
// columns) go through zero-padded stack copies and only their valid lanes
// are used, so every element takes the same arithmetic.
#include <algorithm>
#include <cmath>

#include "kernels/math/vmath.h"
#include "kernels/math/vec_util.h"
#include "kernels/math/vmath_impl.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

constexpr size_t kTaskElements = 16384;

template <typename V>
EMBER_MATH_INLINE void load_part(V& v, const float* p, size_t count, float fill) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  float buf[W];
  for (size_t i = 0; i < W; ++i) buf[i] = i < count ? p[i] : fill;
  load_vec(v, buf);
}
// A running lane-wise max. A NaN may be dropped here: it still reaches
// every output of its row (or column) through exp and the sum, as the
// reference's NaN max would. One select per step: when a loop iteration
// combines two vector compares (an OR of masks, or chained selects),
// GCC 12 compares AVX-512 lanes one by one in scalar code, several times
// slower.
template <typename V>
EMBER_MATH_INLINE void max_step(V& mx, const V& x) {
  mx = mx > x ? mx : x;
}

// One row of `dim` contiguous floats.
template <typename VF, typename VI>
EMBER_MATH_INLINE void softmax_row(size_t dim, const float* in, float* out, bool log) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  using M = VMath<VF, VI>;
  VF mx = VF{} - INFINITY, x;
  size_t i = 0;
  for (; i + W <= dim; i += W) load_vec(x, in + i), max_step(mx, x);
  if (i < dim) load_part(x, in + i, dim - i, -INFINITY), max_step(mx, x);
  const float m = lane_max(mx);
  VF sum{}, e;
  for (i = 0; i + W <= dim; i += W) {
    load_vec(x, in + i);
    M::exp(x - m, e);
    sum += e;
    if (!log) store_vec(out + i, e);
  }
  if (i < dim) {
    load_part(x, in + i, dim - i, -INFINITY);
    M::exp(x - m, e);
    sum += e;  // the padding lanes add exp(-inf) = 0
    if (!log) store_first(out + i, e, dim - i);
  }
  const float s = lane_sum(sum);
  if (log) {
    const float shift = m + std::log(s);
    for (i = 0; i < dim; ++i) out[i] = in[i] - shift;
    return;
  }
  const float inv = 1.0f / s;
  for (i = 0; i + W <= dim; i += W) load_vec(x, out + i), store_vec(out + i, x * inv);
  for (; i < dim; ++i) out[i] *= inv;
}

// Columns [c0, c0 + count) (count <= W) of one [dim, inner] slice.
template <typename VF, typename VI>
EMBER_MATH_INLINE void softmax_columns(size_t dim, size_t inner, const float* in, float* out,
                                      size_t count, bool log) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  using M = VMath<VF, VI>;
  const bool full = count == W;
  VF mx = VF{} - INFINITY, x, e, sum{};
  for (size_t d = 0; d < dim; ++d) {
    full ? load_vec(x, in + d * inner) : load_part(x, in + d * inner, count, -INFINITY);
    max_step(mx, x);
  }
  for (size_t d = 0; d < dim; ++d) {
    full ? load_vec(x, in + d * inner) : load_part(x, in + d * inner, count, -INFINITY);
    M::exp(x - mx, e);
    sum += e;
    if (!log) full ? store_vec(out + d * inner, e) : store_first(out + d * inner, e, count);
  }
  VF scale;
  if (log) {
    float buf[W], s[W];
    store_vec(s, sum);
    store_vec(buf, mx);
    for (size_t i = 0; i < W; ++i) buf[i] += std::log(s[i]);
    load_vec(scale, buf);
  } else {
    scale = 1.0f / sum;
  }
  for (size_t d = 0; d < dim; ++d) {
    if (log) {
      full ? load_vec(x, in + d * inner) : load_part(x, in + d * inner, count, 0.0f);
      x -= scale;
    } else {
      full ? load_vec(x, out + d * inner) : load_part(x, out + d * inner, count, 0.0f);
      x *= scale;
    }
    full ? store_vec(out + d * inner, x) : store_first(out + d * inner, x, count);
  }
}

struct SoftmaxRun {
  size_t outer, dim, inner, chunks;
  const float* in;
  float* out;
  bool log;
};

template <typename VF, typename VI>
EMBER_MATH_INLINE void softmax_task(const SoftmaxRun& r, size_t t) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  if (r.inner == 1) return softmax_row<VF, VI>(r.dim, r.in + t * r.dim, r.out + t * r.dim, r.log);
  const size_t o = t / r.chunks, c0 = t % r.chunks * W;
  const size_t base = o * r.dim * r.inner + c0;
  softmax_columns<VF, VI>(r.dim, r.inner, r.in + base, r.out + base,
                          std::min(W, r.inner - c0), r.log);
}

void task_baseline(const SoftmaxRun& r, size_t t) { softmax_task<VecF4, VecI4>(r, t); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void task_avx2(const SoftmaxRun& r, size_t t) {
  softmax_task<VecF8, VecI8>(r, t);
}
EMBER_MATH_TARGET_AVX512 void task_avx512(const SoftmaxRun& r, size_t t) {
  softmax_task<VecF16, VecI16>(r, t);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void task_neon(const SoftmaxRun& r, size_t t) { softmax_task<VecF8, VecI8>(r, t); }
#endif

}  // namespace

void softmax_f32(size_t outer, size_t dim, size_t inner, const float* in, float* out, bool log,
                 Isa isa, bool pool) {
  if (outer == 0 || dim == 0 || inner == 0) return;
  void (*fn)(const SoftmaxRun&, size_t) = task_baseline;
  size_t width = 4;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = task_avx512, width = 16;
  if (isa == Isa::kAvx2) fn = task_avx2, width = 8;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = task_neon, width = 8;
#endif
  (void)isa;
  const size_t chunks = inner == 1 ? 1 : (inner + width - 1) / width;
  const SoftmaxRun r{outer, dim, inner, chunks, in, out, log};
  const size_t tasks = outer * chunks;
  if (!pool || outer * dim * inner < kTaskElements) {
    for (size_t t = 0; t < tasks; ++t) fn(r, t);
    return;
  }
  parallel_for(tasks, [&](size_t t) { fn(r, t); });
}

}  // namespace ember::math
