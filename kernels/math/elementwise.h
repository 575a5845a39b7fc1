// Vectorized fp32 elementwise kernels for the portable operators' fast
// paths (contiguous operands of one dtype).
#pragma once

#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

// out[i] = min(max(in[i], lo), hi), NaN staying NaN; spread over the
// pool in chunks. ReLU is lo = 0, hi = inf. in == out allowed.
void clamp_f32(size_t n, const float* in, float* out, float lo, float hi,
               Isa isa = best_isa());

// out[i] = in[i] * scale + shift on the calling thread (a per-channel
// affine map: batch norm in inference). in == out allowed. The multiply
// and add may fuse (FMA) on the AVX2 and AVX-512 paths.
void scale_shift_f32(size_t n, const float* in, float* out, float scale, float shift,
                     Isa isa = best_isa());

}  // namespace ember::math
