// Layer normalization over the last n elements of each row, fp32.
#pragma once

#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

// For each of `rows` rows of n floats: mean, and rstd = 1 / sqrt(var +
// eps) with the biased variance (two passes over the row, sums in float
// vector lanes, lanes added in order); then
//   out = (x - mean) * rstd * weight + bias
// (weight, bias: n floats each, or null). mean and rstd receive one value
// per row, or are null. Spread over the pool by rows.
void layer_norm_f32(size_t rows, size_t n, const float* in, const float* weight,
                    const float* bias, float eps, float* out, float* mean, float* rstd,
                    Isa isa = best_isa());

}  // namespace ember::math
