// Geometry helpers shared by the 2-D pooling kernels (max_pool2d, avg_pool2d).
#pragma once

#include <cstdint>

#include "runtime/kernel/kernel_args.h"

namespace ember {

// PyTorch's pooling_output_shape (may return < 1 for a too-small input).
inline int64_t pooled_size(int64_t in, int64_t kernel, int64_t pad,
                           int64_t stride, int64_t dilation, bool ceil_mode) {
  const int64_t num = in + 2 * pad - dilation * (kernel - 1) - 1 +
                      (ceil_mode ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) {
    --out;
  }
  return out;
}

// Entry i of an int[2] argument given as [], [v] or [h, w]; `fallback` for
// []. Bounded to [min_value, 2^30] so geometry stays inside int64 and
// output sizes inside SizesType.
inline bool pair_value(KernelArgs& a, Span<int64_t> list, size_t i,
                       int64_t fallback, const char* what, int64_t min_value,
                       int64_t* out) {
  if (list.size() > 2) {
    return a.fail(Error::InvalidArgument, "%s has %zu entries; expected 1 or 2",
                  what, list.size());
  }
  *out = list.size() == 0 ? fallback : list.size() == 1 ? list[0] : list[i];
  if (*out > int64_t(1) << 30) {
    return a.fail(Error::InvalidArgument, "%s = %lld is out of range", what,
                  static_cast<long long>(*out));
  }
  if (*out < min_value) {
    return a.fail(Error::InvalidArgument, "%s = %lld must be >= %lld", what,
                  static_cast<long long>(*out),
                  static_cast<long long>(min_value));
  }
  return true;
}

}  // namespace ember
