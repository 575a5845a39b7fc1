// gemv_rows_f32 (gemm.h): each row of A against one vector, read in place;
// vecmat_rows_f32: one vector times A, A's rows streamed in place.
#include <cmath>
#include <cstddef>

#include "kernels/math/gemm.h"
#include "kernels/math/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

// Rows per task when the product is spread over the pool.
constexpr size_t kRowsPerTask = 64;

// Rows [r0, r1): four at a time sharing each chunk of x, then the rest;
// each row's sum is W lanes over the vector part, reduced by lane_sums4
// (four rows) or in lane order (the rest), then the tail in order.
template <typename V>
EMBER_MATH_INLINE void gemv_rows(size_t r0, size_t r1, size_t k, const float* a, size_t lda,
                                 const float* x, float* y) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const size_t kv = k / W * W;
  size_t r = r0;
  for (; r + 4 <= r1; r += 4) {
    const float* a0 = a + r * lda;
    const float* a1 = a0 + lda;
    const float* a2 = a1 + lda;
    const float* a3 = a2 + lda;
    V s0 = {}, s1 = {}, s2 = {}, s3 = {};
    for (size_t p = 0; p < kv; p += W) {
      V xv, v0, v1, v2, v3;
      load_vec(xv, x + p);
      load_vec(v0, a0 + p);
      load_vec(v1, a1 + p);
      load_vec(v2, a2 + p);
      load_vec(v3, a3 + p);
      s0 += v0 * xv;
      s1 += v1 * xv;
      s2 += v2 * xv;
      s3 += v3 * xv;
    }
    float t[4];
    lane_sums4(s0, s1, s2, s3, t);
    float t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    for (size_t p = kv; p < k; ++p) {
      t0 += a0[p] * x[p];
      t1 += a1[p] * x[p];
      t2 += a2[p] * x[p];
      t3 += a3[p] * x[p];
    }
    y[r] = t0, y[r + 1] = t1, y[r + 2] = t2, y[r + 3] = t3;
  }
  for (; r < r1; ++r) {
    const float* ar = a + r * lda;
    V s = {};
    for (size_t p = 0; p < kv; p += W) {
      V xv, v;
      load_vec(xv, x + p);
      load_vec(v, ar + p);
      s += v * xv;
    }
    float t = lane_sum(s);
    for (size_t p = kv; p < k; ++p) t += ar[p] * x[p];
    y[r] = t;
  }
}

// y = x A over m rows: kAcc vectors of columns summed in registers while
// every row streams past, then single vectors, then the scalar tail.
template <typename V>
EMBER_MATH_INLINE void vecmat_rows(size_t m, size_t n, const float* x, const float* a,
                                   size_t lda, float* y, bool accumulate) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  constexpr size_t kAcc = 8;
  size_t j = 0;
  for (; j + kAcc * W <= n; j += kAcc * W) {
    V acc[kAcc] = {};
    if (accumulate) {
      for (size_t v = 0; v < kAcc; ++v) load_vec(acc[v], y + j + v * W);
    }
    for (size_t i = 0; i < m; ++i) {
      const float* row = a + i * lda + j;
      const float xi = x[i];
      for (size_t v = 0; v < kAcc; ++v) {
        V b;
        load_vec(b, row + v * W);
        acc[v] += b * xi;
      }
    }
    for (size_t v = 0; v < kAcc; ++v) store_vec(y + j + v * W, acc[v]);
  }
  for (; j + W <= n; j += W) {
    V acc = {};
    if (accumulate) load_vec(acc, y + j);
    for (size_t i = 0; i < m; ++i) {
      V b;
      load_vec(b, a + i * lda + j);
      acc += b * x[i];
    }
    store_vec(y + j, acc);
  }
  for (; j < n; ++j) {
    // One rounding per row whatever the compiler groups (it turned some
    // rows into a vector multiply and scalar adds): blocks of rows give
    // the bits of one call.
    float s = accumulate ? y[j] : 0.0f;
    for (size_t i = 0; i < m; ++i) s = std::fma(x[i], a[i * lda + j], s);
    y[j] = s;
  }
}

struct VecmatRun {
  size_t m, n;
  const float* x;
  const float* a;
  size_t lda;
  float* y;
  bool accumulate;
};

void vecmat_baseline(const VecmatRun& r) {
  vecmat_rows<VecF4>(r.m, r.n, r.x, r.a, r.lda, r.y, r.accumulate);
}
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void vecmat_avx2(const VecmatRun& r) {
  vecmat_rows<VecF8>(r.m, r.n, r.x, r.a, r.lda, r.y, r.accumulate);
}
EMBER_MATH_TARGET_AVX512 void vecmat_avx512(const VecmatRun& r) {
  vecmat_rows<VecF16>(r.m, r.n, r.x, r.a, r.lda, r.y, r.accumulate);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
void vecmat_neon(const VecmatRun& r) {
  vecmat_rows<VecF4>(r.m, r.n, r.x, r.a, r.lda, r.y, r.accumulate);
}
#endif

struct GemvRun {
  size_t m, k;
  const float* a;
  size_t lda;
  const float* x;
  float* y;
};

void run_baseline(const GemvRun& g, size_t r0, size_t r1) {
  gemv_rows<VecF4>(r0, r1, g.k, g.a, g.lda, g.x, g.y);
}
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void run_avx2(const GemvRun& g, size_t r0, size_t r1) {
  gemv_rows<VecF8>(r0, r1, g.k, g.a, g.lda, g.x, g.y);
}
EMBER_MATH_TARGET_AVX512 void run_avx512(const GemvRun& g, size_t r0, size_t r1) {
  gemv_rows<VecF16>(r0, r1, g.k, g.a, g.lda, g.x, g.y);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
void run_neon(const GemvRun& g, size_t r0, size_t r1) {  // two NEON registers per vector
  gemv_rows<VecF8>(r0, r1, g.k, g.a, g.lda, g.x, g.y);
}
#endif

}  // namespace

void gemv_rows_f32(size_t m, size_t k, const float* a, size_t lda, const float* x, float* y,
                   Isa isa, bool pool) {
  if (m == 0) return;
  void (*fn)(const GemvRun&, size_t, size_t) = run_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = run_avx512;
  if (isa == Isa::kAvx2) fn = run_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = run_neon;
#endif
  (void)isa;
  const GemvRun g{m, k, a, lda, x, y};
  if (!pool || m * k < kInlineMacs || m <= kRowsPerTask) {
    fn(g, 0, m);
    return;
  }
  const size_t tasks = (m + kRowsPerTask - 1) / kRowsPerTask;
  parallel_for(tasks, [&](size_t t) {
    const size_t r0 = t * kRowsPerTask;
    fn(g, r0, r0 + kRowsPerTask < m ? r0 + kRowsPerTask : m);
  });
}

void vecmat_rows_f32(size_t m, size_t n, const float* x, const float* a, size_t lda, float* y,
                     Isa isa, bool accumulate) {
  if (n == 0) return;
  void (*fn)(const VecmatRun&) = vecmat_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = vecmat_avx512;
  if (isa == Isa::kAvx2) fn = vecmat_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = vecmat_neon;
#endif
  (void)isa;
  fn(VecmatRun{m, n, x, a, lda, y, accumulate});
}

}  // namespace ember::math
