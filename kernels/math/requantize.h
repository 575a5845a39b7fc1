// Requantization: int32 accumulators back to int8.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::math {

// out[i] = clamp(round_half_even(float(acc[i]) * scale + offset), qmin,
// qmax), where offset is the output zero point plus any rounding shift
// the caller folds in; [qmin, qmax] within [-128, 127]. On the calling
// thread (callers split their work already).
void requantize_i32_i8(size_t n, const int32_t* acc, float scale, float offset, int32_t qmin,
                       int32_t qmax, int8_t* out);

// The int8 value nearest to the real value v in (scale, zero_point),
// clamped to [-128, 127]; `fallback` when v is infinite (an unbounded
// activation limit).
int32_t quantize_limit_i8(float v, float scale, int32_t zero_point, int32_t fallback);

}  // namespace ember::math
