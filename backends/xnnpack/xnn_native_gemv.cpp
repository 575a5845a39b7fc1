// Matrix-vector product for fully connected layers over one row of input
// (a classifier head): the weights are read in place, [n, k] row-major as
// the program stores them, so nothing is packed at load and no copy of
// them is kept. Each output is one dot product: four weight rows at a
// time share each vector load of x; every row's sum is split over the
// vector's lanes in k order and the lanes are added in a fixed order, so
// the result does not depend on the thread count.
#include <algorithm>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kRowsPerTask = 64;
constexpr size_t kRowGroup = 4;

struct GemvArgs {
  size_t n, k;
  const float* x;
  const float* w;
  const float* bias;
  float lo, hi;
  float* y;
};

template <typename V>
EMBER_XNN_INLINE float lane_sum(const V& v) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  float lanes[W];
  store_vec(lanes, v);
  float s = 0.0f;
  for (size_t i = 0; i < W; ++i) s += lanes[i];
  return s;
}

// Rows [r0, r0 + rows) of y, rows <= kRowGroup.
template <typename V, size_t R>
EMBER_XNN_INLINE void gemv_rows(const GemvArgs& a, size_t r0) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  const float* w[R];
  for (size_t r = 0; r < R; ++r) w[r] = a.w + (r0 + r) * a.k;
  V acc[R];
  for (size_t r = 0; r < R; ++r) acc[r] = V{};
  size_t p = 0;
  for (; p + W <= a.k; p += W) {
    V xv;
    load_vec(xv, a.x + p);
    for (size_t r = 0; r < R; ++r) {
      V wv;
      load_vec(wv, w[r] + p);
      acc[r] += xv * wv;
    }
  }
  for (size_t r = 0; r < R; ++r) {
    float s = lane_sum(acc[r]);
    for (size_t q = p; q < a.k; ++q) s += a.x[q] * w[r][q];
    if (a.bias != nullptr) s += a.bias[r0 + r];
    s = s < a.lo ? a.lo : s;
    a.y[r0 + r] = s > a.hi ? a.hi : s;
  }
}

template <typename V>
EMBER_XNN_INLINE void gemv_task(const GemvArgs& a, size_t task) {
  const size_t r0 = task * kRowsPerTask;
  const size_t r1 = std::min(a.n, r0 + kRowsPerTask);
  size_t r = r0;
  for (; r + kRowGroup <= r1; r += kRowGroup) gemv_rows<V, kRowGroup>(a, r);
  for (; r < r1; ++r) gemv_rows<V, 1>(a, r);
}

void gemv_baseline(const GemvArgs& a, size_t task) { gemv_task<VecF4>(a, task); }
#if EMBER_XNN_X86_DISPATCH
EMBER_XNN_TARGET_AVX2 void gemv_avx2(const GemvArgs& a, size_t task) {
  gemv_task<VecF8>(a, task);
}
EMBER_XNN_TARGET_AVX512 void gemv_avx512(const GemvArgs& a, size_t task) {
  gemv_task<VecF16>(a, task);
}
#endif

}  // namespace

void gemv_f32(size_t n, size_t k, const float* x, const float* w, const float* bias, float lo,
              float hi, float* y, Isa isa) {
  struct Ctx {
    GemvArgs a;
    void (*fn)(const GemvArgs&, size_t);
  } c{{n, k, x, w, bias, lo, hi, y}, gemv_baseline};
#if EMBER_XNN_X86_DISPATCH
  if (isa == Isa::kAvx512) c.fn = gemv_avx512;
  if (isa == Isa::kAvx2) c.fn = gemv_avx2;
#endif
  (void)isa;
  // Small products (a squeeze-and-excitation block's) stay on the calling
  // thread: waking the pool would cost more than the work.
  const size_t tasks = n * k < kInlineMacs ? 1 : (n + kRowsPerTask - 1) / kRowsPerTask;
  if (tasks == 1) {
    for (size_t t = 0; t * kRowsPerTask < n; ++t) c.fn(c.a, t);
    return;
  }
  parallel_for(tasks, [&c](size_t task) { c.fn(c.a, task); });
}

}  // namespace ember::xnnpack
