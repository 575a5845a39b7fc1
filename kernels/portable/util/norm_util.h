// Shared pieces of the normalization kernels (native_layer_norm,
// native_group_norm, _native_batch_norm_legit_no_training): argument checks
// and the mean / reciprocal standard deviation of a contiguous run.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Mean and 1 / sqrt(biased variance + eps) of x[0, n), two passes in
// double. n == 0 gives NaN for both, as PyTorch does.
template <typename T>
void mean_rstd(const T* x, int64_t n, double eps, double* mean, double* rstd) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    sum += double(x[i]);
  }
  const double m = sum / double(n);
  double m2 = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = double(x[i]) - m;
    m2 += d * d;
  }
  *mean = m;
  *rstd = 1.0 / std::sqrt(m2 / double(n) + eps);
}

// Fails unless `t` (when present) is contiguous, has dtype `type` and
// `numel` elements.
bool check_norm_param(KernelArgs& a, Optional<Tensor> t, ScalarType type,
                      int64_t numel, const char* what);

// An inference batch norm's affine map for channel ch, y = x * scale +
// shift, in double: scale = weight / sqrt(var + eps), shift = bias - mean *
// scale (weight and bias may be null: 1 and 0). The batch norm kernel and
// the fused convolution both compute it here.
template <typename T>
inline void batch_norm_factors(const T* weight, const T* bias, const T* mean, const T* var,
                               double eps, int64_t ch, double* scale, double* shift) {
  const double inv = 1.0 / std::sqrt(double(var[ch]) + eps);
  *scale = inv * (weight != nullptr ? double(weight[ch]) : 1.0);
  *shift = (bias != nullptr ? double(bias[ch]) : 0.0) - double(mean[ch]) * *scale;
}

// The boxed argument count of an op with `outs` out tensors and a tuple
// return: schema args + outs, then one tuple value or the outs again.
inline size_t tuple_op_arg_count(size_t given, size_t schema_args, size_t outs) {
  return given == schema_args + 1 ? given : schema_args + outs;
}

}  // namespace ember
