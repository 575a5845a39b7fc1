// Requantization (requantize.h). Rounding is std::nearbyint under the
// default rounding mode: half to even, as XNNPACK's and PyTorch's int8
// operators round.
#include "kernels/math/requantize.h"

#include <cmath>

namespace ember::math {

void requantize_i32_i8(size_t n, const int32_t* acc, float scale, float offset, int32_t qmin,
                       int32_t qmax, int8_t* out) {
  const float lo = float(qmin), hi = float(qmax);
  for (size_t i = 0; i < n; ++i) {
    // Clamped as float first: a huge accumulator must not overflow the
    // conversion to int32.
    float q = std::nearbyint(float(acc[i]) * scale + offset);
    q = q < lo ? lo : q > hi ? hi : q;
    out[i] = int8_t(int32_t(q));
  }
}

int32_t quantize_limit_i8(float v, float scale, int32_t zero_point, int32_t fallback) {
  if (!std::isfinite(v)) return fallback;
  const float q = std::nearbyint(v / scale) + float(zero_point);
  return q < -128.0f ? -128 : q > 127.0f ? 127 : int32_t(q);
}

}  // namespace ember::math
