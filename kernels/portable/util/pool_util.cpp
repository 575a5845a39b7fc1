#include "kernels/portable/util/pool_util.h"

namespace ember {

bool pool2d_window(KernelArgs& a, Tensor self, Span<int64_t> kernel, Span<int64_t> stride,
                   Span<int64_t> padding, Span<int64_t> dilation, bool ceil_mode,
                   PoolWindow2d* w) {
  const size_t ndim = self.dim();
  if (ndim != 3 && ndim != 4) {
    return a.fail(Error::InvalidArgument, "self must have 3 or 4 dims, has %zu", ndim);
  }
  if (kernel.size() == 0) {
    return a.fail(Error::InvalidArgument, "kernel_size must not be empty");
  }
  for (size_t i = 0; i < 2; ++i) {
    if (!pair_value(a, kernel, i, 1, "kernel_size", 1, &w->kernel[i]) ||
        !pair_value(a, stride, i, w->kernel[i], "stride", 1, &w->stride[i]) ||
        !pair_value(a, padding, i, 0, "padding", 0, &w->pad[i]) ||
        !pair_value(a, dilation, i, 1, "dilation", 1, &w->dilation[i])) {
      return false;
    }
    if (w->pad[i] > w->kernel[i] / 2) {
      return a.fail(Error::InvalidArgument,
                    "padding %lld must be at most half the kernel size %lld",
                    static_cast<long long>(w->pad[i]), static_cast<long long>(w->kernel[i]));
    }
  }
  w->in_h = self.sizes()[ndim - 2];
  w->in_w = self.sizes()[ndim - 1];
  w->planes = w->in_h * w->in_w == 0 ? 0 : self.numel() / (w->in_h * w->in_w);
  w->out_h = pooled_size(w->in_h, w->kernel[0], w->pad[0], w->stride[0], w->dilation[0],
                         ceil_mode);
  w->out_w = pooled_size(w->in_w, w->kernel[1], w->pad[1], w->stride[1], w->dilation[1],
                         ceil_mode);
  return true;
}

bool check_pooled_size(KernelArgs& a, const PoolWindow2d& w) {
  if (w.out_h < 1 || w.out_w < 1 || w.out_h > INT32_MAX || w.out_w > INT32_MAX) {
    return a.fail(Error::InvalidArgument,
                  "input %lld x %lld is too small for the pooling window (output "
                  "%lld x %lld)",
                  static_cast<long long>(w.in_h), static_cast<long long>(w.in_w),
                  static_cast<long long>(w.out_h), static_cast<long long>(w.out_w));
  }
  return true;
}

}  // namespace ember
