// Shared pieces of the normalization kernels (native_layer_norm,
// native_group_norm, _native_batch_norm_legit and its no_training form):
// argument checks, the mean and variance of strided runs, and the batch
// norm's per-channel affine map.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/math/elementwise.h"

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/platform/threadpool.h"

namespace ember {

// Mean and biased variance of `runs` runs of `len` elements, run r
// starting at x + r * stride (one channel of a batch: runs = N, stride =
// C * plane), two passes in double. No elements gives NaN for both, as
// PyTorch does.
template <typename T>
void strided_mean_var(const T* x, int64_t runs, int64_t len, int64_t stride,
                      double* mean, double* var) {
  double sum = 0;
  for (int64_t r = 0; r < runs; ++r) {
    for (int64_t i = 0; i < len; ++i) {
      sum += double(x[r * stride + i]);
    }
  }
  const double count = double(runs) * double(len);
  const double m = sum / count;
  double m2 = 0;
  for (int64_t r = 0; r < runs; ++r) {
    for (int64_t i = 0; i < len; ++i) {
      const double d = double(x[r * stride + i]) - m;
      m2 += d * d;
    }
  }
  *mean = m;
  *var = m2 / count;
}

// Mean and 1 / sqrt(biased variance + eps) of x[0, n).
template <typename T>
void mean_rstd(const T* x, int64_t n, double eps, double* mean, double* rstd) {
  double var;
  strided_mean_var(x, 1, n, n, mean, &var);
  *rstd = 1.0 / std::sqrt(var + eps);
}

// Fails unless `t` (when present) is contiguous, has dtype `type` and
// `numel` elements.
bool check_norm_param(KernelArgs& a, Optional<Tensor> t, ScalarType type,
                      int64_t numel, const char* what);

// The dtype and layout checks of a norm with three outputs (layer and
// group norm): floating input; out0, mean and rstd of its dtype; all four
// contiguous. They depend only on dtypes and shapes: a prepared call
// skips them.
bool check_norm_outputs(KernelArgs& a, Tensor input, Tensor out, Tensor mean, Tensor rstd);

// The element count part of check_norm_param alone, for a prepared call
// whose `numel` follows from Int arguments (layer norm's normalized_shape).
bool check_norm_param_numel(KernelArgs& a, Optional<Tensor> t, int64_t numel,
                            const char* what);

// A batch norm's affine map for channel ch, y = x * scale + shift, in
// double: scale = weight / sqrt(var + eps), shift = bias - mean * scale
// (weight and bias may be null: 1 and 0). The statistics are the running
// ones (element type T) or a batch's own (double, S). The batch norm
// kernels and the fused convolution all compute it here.
template <typename T, typename S>
inline void batch_norm_factors(const T* weight, const T* bias, const S* mean, const S* var,
                               double eps, int64_t ch, double* scale, double* shift) {
  const double inv = 1.0 / std::sqrt(double(var[ch]) + eps);
  *scale = inv * (weight != nullptr ? double(weight[ch]) : 1.0);
  *shift = (bias != nullptr ? double(bias[ch]) : 0.0) - double(mean[ch]) * *scale;
}

// out = batch norm of contiguous in [n, c, plane] with per-channel
// statistics mean[c], var[c] (see batch_norm_factors). One task per
// (image, channel) plane, threaded above 2^15 elements; Float runs the
// kernel maths library's scale-and-shift loop.
template <typename T, typename S>
void batch_norm_apply(const T* in, const T* w, const T* b, const S* mean,
                      const S* var, double eps, int64_t n, int64_t c, int64_t plane,
                      T* out) {
  using C = OpMath<T>;
  auto plane_task = [&](size_t task) {
    const int64_t i = int64_t(task) / c, ch = int64_t(task) % c;
    double scale_d, shift_d;
    batch_norm_factors(w, b, mean, var, eps, ch, &scale_d, &shift_d);
    const C scale = C(scale_d), shift = C(shift_d);
    const T* x = in + (i * c + ch) * plane;
    T* y = out + (i * c + ch) * plane;
    if constexpr (std::is_same_v<T, float>) {
      math::scale_shift_f32(size_t(plane), x, y, scale, shift);
    } else {
      for (int64_t k = 0; k < plane; ++k) {
        y[k] = T(C(x[k]) * scale + shift);
      }
    }
  };
  const size_t planes = size_t(n * c);
  if (n * c * plane < (int64_t(1) << 15)) {
    for (size_t t = 0; t < planes; ++t) plane_task(t);
    return;
  }
  parallel_for(planes, [&plane_task](size_t t) { plane_task(t); });
}

// The boxed argument count of an op with `outs` out tensors and a tuple
// return: schema args + outs, then one tuple value or the outs again.
inline size_t tuple_op_arg_count(size_t given, size_t schema_args, size_t outs) {
  return given == schema_args + 1 ? given : schema_args + outs;
}

}  // namespace ember
