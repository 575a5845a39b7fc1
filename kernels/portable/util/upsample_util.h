// Output size and source-coordinate scale for the 2-D upsampling kernels
// (upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa),
// as PyTorch's UpSample.h computes them.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Output H and W from output_size or scale_factors (exactly one must be
// given), range-checked; resizes `out` to [..., H, W] of `in`'s shape.
bool upsample_prologue(KernelArgs& a, Tensor in, Optional<Span<int64_t>> size,
                       Optional<Span<double>> scales, Tensor out,
                       int64_t* out_h, int64_t* out_w);

// A `float[]?` argument (KernelArgs has no accessor for it).
inline Optional<Span<double>> optional_double_list(KernelArgs& a, size_t i) {
  if (!a.ok() || i >= a.size() || a.value(i).is_none()) {
    return {};
  }
  Span<double> list = a.double_list(i);
  return a.ok() ? Optional<Span<double>>(list) : Optional<Span<double>>();
}

// 1 / scale when a positive scale factor was given, else in / out.
template <typename C>
inline C upsample_scale(Optional<Span<double>> scales, size_t i, int64_t in,
                        int64_t out) {
  if (scales.has_value() && scales.value()[i] > 0.0) {
    return static_cast<C>(1.0 / scales.value()[i]);
  }
  return static_cast<C>(in) / static_cast<C>(out);
}

// PyTorch's area_pixel_compute_scale: with align_corners the corner
// centres map to each other ((in - 1) / (out - 1), 0 for one output),
// else upsample_scale().
template <typename C>
inline C upsample_area_scale(bool align_corners, Optional<Span<double>> scales,
                             size_t i, int64_t in, int64_t out) {
  if (align_corners) {
    return out > 1 ? C(in - 1) / C(out - 1) : C(0);
  }
  return upsample_scale<C>(scales, i, in, out);
}

}  // namespace ember
