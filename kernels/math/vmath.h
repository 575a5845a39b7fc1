// Vectorized elementwise fp32 maths: out[i] = f(in[i]) for i < n, spread
// over the shared pool in chunks of 16K elements (in == out allowed).
// Error bounds, measured against double-precision references on every
// ISA path (vmath_test.cpp):
//   exp_f32      within 2 ulp (subnormal results included; overflow gives
//                inf, -inf gives 0)
//   erf_f32      absolute error below 1e-7; |x| >= 3.92 gives exactly +-1
//   gelu_f32     x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), 1 + erf
//                computed without cancellation for negative x; absolute
//                error below 1e-7 * max(1, |x|)
//   tanh_f32     within 2 ulp (exactly +-1 from |x| = 9.1 on)
//   sigmoid_f32  relative error below 4 ulp for x >= -87; 0 below -89
// NaN stays NaN.
#pragma once

#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

void exp_f32(size_t n, const float* in, float* out, Isa isa = best_isa());
void erf_f32(size_t n, const float* in, float* out, Isa isa = best_isa());
void gelu_f32(size_t n, const float* in, float* out, Isa isa = best_isa());
void tanh_f32(size_t n, const float* in, float* out, Isa isa = best_isa());
void sigmoid_f32(size_t n, const float* in, float* out, Isa isa = best_isa());

// Softmax over the middle dim of [outer, dim, inner] (contiguous):
// out = exp(x - max) / sum, or with `log` x - max - log(sum). Sums in
// float, per vector lane then lanes in order. Spread over outer rows on
// the pool, unless `pool` is false (a caller that is itself a pool task);
// the bits are the same either way.
void softmax_f32(size_t outer, size_t dim, size_t inner, const float* in, float* out, bool log,
                 Isa isa = best_isa(), bool pool = true);

}  // namespace ember::math
