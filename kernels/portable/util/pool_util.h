// Geometry helpers shared by the 2-D pooling kernels (max_pool2d_with_indices,
// its backward, avg_pool2d).
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
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

// The window of a 2-D pooling call over input [N, C, H, W] or [C, H, W].
struct PoolWindow2d {
  int64_t planes, in_h, in_w, out_h, out_w;
  int64_t kernel[2], stride[2], pad[2], dilation[2];
};

// Checks self has 3 or 4 dims and kernel_size is not empty, reads
// kernel_size, stride (default: the kernel), padding (at most half the
// kernel) and dilation (an empty list: 1) as pair_value does, and fills
// *w with the pooled sizes (pooled_size; may be < 1, which the caller
// reports). Returns false after failing the kernel.
bool pool2d_window(KernelArgs& a, Tensor self, Span<int64_t> kernel, Span<int64_t> stride,
                   Span<int64_t> padding, Span<int64_t> dilation, bool ceil_mode,
                   PoolWindow2d* w);

// Fails unless the pooled size of a forward pooling is between 1 and
// INT32_MAX in both dims.
bool check_pooled_size(KernelArgs& a, const PoolWindow2d& w);

}  // namespace ember
