// The taps of torch's antialiased bilinear resample along one dim (its
// F.interpolate(mode="bilinear", antialias=True), and PIL's BILINEAR): with
// scale s (input units per output), output i is centred at s * (i + 0.5)
// and reads the inputs within max(s, 1) of it through a triangle filter of
// that half-width, the weights normalized to sum 1; a window past the
// input's end reads nothing (its count is 0). One copy for the portable
// kernel (_upsample_bilinear2d_aa) and the LLM runner's image resize.
// Header only, no heap: the caller owns the arrays.
#pragma once

#include <cmath>
#include <cstdint>

namespace ember::math {

// The most inputs one output reads along a dim of `in` elements at
// `scale` (the filter spans 2 * support, plus rounding at each end).
inline int64_t antialias_max_taps(double scale, int64_t in) {
  const double support = scale >= 1.0 ? scale : 1.0;
  const double t = std::ceil(2.0 * support) + 2.0;
  return t < double(in) ? int64_t(t) : in;
}

// For outputs 0..out-1: output i reads inputs [first[i], first[i] +
// count[i]) with weights[i * max_taps + k]. `scale` must keep
// scale * (out + 1) well inside int64 (the caller checks a scale it was
// given).
template <typename W>
void antialias_taps(int64_t in, int64_t out, double scale, int64_t max_taps, int64_t* first,
                    int64_t* count, W* weights) {
  const double support = scale >= 1.0 ? scale : 1.0;
  const double inv = 1.0 / support;
  for (int64_t i = 0; i < out; ++i) {
    const double centre = scale * (double(i) + 0.5);
    int64_t lo = int64_t(centre - support + 0.5);
    lo = lo < 0 ? 0 : (lo > in ? in : lo);
    int64_t hi = int64_t(centre + support + 0.5);
    hi = hi > in ? in : hi;
    int64_t n = hi > lo ? hi - lo : 0;
    n = n > max_taps ? max_taps : n;
    W* dst = weights + i * max_taps;
    double total = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double x = std::fabs((double(lo + k) - centre + 0.5) * inv);
      const double v = x < 1.0 ? 1.0 - x : 0.0;
      dst[k] = W(v);
      total += v;
    }
    if (total != 0.0) {
      for (int64_t k = 0; k < n; ++k) dst[k] = W(double(dst[k]) / total);
    }
    first[i] = lo;
    count[i] = n;
  }
}

}  // namespace ember::math
