// Layer normalization (norm.h).
#include "kernels/math/norm.h"

#include <algorithm>
#include <cmath>

#include "kernels/math/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

struct NormRun {
  size_t n;
  const float *in, *weight, *bias;
  float eps;
  float *out, *mean, *rstd;
};

template <typename V>
EMBER_MATH_INLINE void norm_row(const NormRun& r, size_t row) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const size_t n = r.n;
  const float* x = r.in + row * n;
  float* y = r.out + row * n;
  V acc{}, v;
  size_t i = 0;
  for (; i + W <= n; i += W) load_vec(v, x + i), acc += v;
  float sum = lane_sum(acc);
  for (; i < n; ++i) sum += x[i];
  const float mean = sum / float(n);
  acc = V{};
  for (i = 0; i + W <= n; i += W) load_vec(v, x + i), v -= mean, acc += v * v;
  float sq = lane_sum(acc);
  for (; i < n; ++i) sq += (x[i] - mean) * (x[i] - mean);
  const float rstd = 1.0f / std::sqrt(sq / float(n) + r.eps);
  if (r.mean) r.mean[row] = mean;
  if (r.rstd) r.rstd[row] = rstd;
  for (i = 0; i + W <= n; i += W) {
    load_vec(v, x + i);
    v = (v - mean) * rstd;
    V t;
    if (r.weight) load_vec(t, r.weight + i), v *= t;
    if (r.bias) load_vec(t, r.bias + i), v += t;
    store_vec(y + i, v);
  }
  for (; i < n; ++i) {
    float u = (x[i] - mean) * rstd;
    if (r.weight) u *= r.weight[i];
    if (r.bias) u += r.bias[i];
    y[i] = u;
  }
}

void row_baseline(const NormRun& r, size_t row) { norm_row<VecF4>(r, row); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void row_avx2(const NormRun& r, size_t row) { norm_row<VecF8>(r, row); }
EMBER_MATH_TARGET_AVX512 void row_avx512(const NormRun& r, size_t row) {
  norm_row<VecF16>(r, row);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void row_neon(const NormRun& r, size_t row) { norm_row<VecF8>(r, row); }
#endif

}  // namespace

void layer_norm_f32(size_t rows, size_t n, const float* in, const float* weight,
                    const float* bias, float eps, float* out, float* mean, float* rstd,
                    Isa isa) {
  if (rows == 0 || n == 0) return;
  void (*fn)(const NormRun&, size_t) = row_baseline;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) fn = row_avx512;
  if (isa == Isa::kAvx2) fn = row_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) fn = row_neon;
#endif
  (void)isa;
  const NormRun r{n, in, weight, bias, eps, out, mean, rstd};
  if (rows * n < kInlineMacs / 4) {
    for (size_t row = 0; row < rows; ++row) fn(r, row);
    return;
  }
  parallel_for(rows, [&](size_t row) { fn(r, row); });
}

}  // namespace ember::math
