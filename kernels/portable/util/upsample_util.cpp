#include "kernels/portable/util/upsample_util.h"

#include "kernels/portable/util/reduce_ops.h"

namespace ember {

bool upsample_prologue(KernelArgs& a, Tensor in, Optional<Span<int64_t>> size,
                       Optional<Span<double>> scales, Tensor out,
                       int64_t* out_h, int64_t* out_w) {
  if (!a.ok() || !check_same_dtype(a, in, out) ||
      !check_contiguous(a, in, "input") || !check_contiguous(a, out, "out")) {
    return false;
  }
  if (in.dim() != 4) {
    return a.fail(Error::InvalidArgument, "input must have 4 dims, has %zu",
                  in.dim());
  }
  if (size.has_value() == scales.has_value()) {
    return a.fail(Error::InvalidArgument,
                  "exactly one of output_size and scale_factors must be given");
  }
  const int64_t in_h = in.sizes()[2], in_w = in.sizes()[3];
  int64_t dims[2];
  for (size_t i = 0; i < 2; ++i) {
    if (size.has_value()) {
      if (size.value().size() != 2) {
        return a.fail(Error::InvalidArgument, "output_size must have 2 entries");
      }
      dims[i] = size.value()[i];
    } else {
      if (scales.value().size() != 2) {
        return a.fail(Error::InvalidArgument, "scale_factors must have 2 entries");
      }
      const double s = scales.value()[i];
      const double o = std::floor(double(i == 0 ? in_h : in_w) * s);
      if (!(s > 0.0) || !(o < 2147483648.0)) {
        return a.fail(Error::InvalidArgument, "scale factor %g is out of range", s);
      }
      dims[i] = int64_t(o);
    }
    if (dims[i] < 1 || dims[i] > INT32_MAX) {
      return a.fail(Error::InvalidArgument, "output size %lld is out of range",
                    static_cast<long long>(dims[i]));
    }
  }
  if (in_h < 1 || in_w < 1) {
    return a.fail(Error::InvalidArgument, "input spatial size must be nonzero");
  }
  const SizesType shape[4] = {in.sizes()[0], in.sizes()[1], SizesType(dims[0]),
                              SizesType(dims[1])};
  // N * C and OH * OW are each below 2^62; their product is checked.
  int64_t total;
  if (__builtin_mul_overflow(int64_t(shape[0]) * shape[1], dims[0] * dims[1],
                             &total) ||
      total > INT32_MAX) {
    return a.fail(Error::InvalidArgument, "output is too large");
  }
  *out_h = dims[0];
  *out_w = dims[1];
  return resize_out(a, out, {shape, 4});
}

}  // namespace ember
