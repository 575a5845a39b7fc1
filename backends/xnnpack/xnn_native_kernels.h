// The loops behind the delegate's native steps (xnn_native_ops.cpp),
// on raw pointers and shapes, so they can be tested against plain
// reference loops (test/xnnpack/native_ops_test.cpp).
//
// Every function spreads its work over the shared thread pool
// (parallel_for), never allocates, and gives the same result for every
// thread count. `isa` selects the instruction set (xnn_simd.h); it must
// satisfy isa_supported(). Inputs and outputs must not overlap.
#pragma once

#include <cstddef>

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_simd.h"

namespace ember::xnnpack {

// ------------------------------------------------------------ matmul

// out[i] = a[i] x b[i] for every index i of the batch dims, fp32,
// row-major: a is [.., m, k], b is [.., k, n], out is [.., m, n]. A batch
// dim of size 1 in a or b broadcasts against out's.
struct BmmShape {
  size_t batch_rank = 0;  // rank - 2
  size_t out_batch[kMaxDims] = {};
  size_t a_batch[kMaxDims] = {};  // out_batch[d] or 1
  size_t b_batch[kMaxDims] = {};
  size_t m = 0, k = 0, n = 0;
};

// Cache-blocked, register-blocked; each output element is one sum in k
// order per block of 256, so results do not depend on the thread count.
// k == 0 writes zeros.
void bmm_f32(const BmmShape& shape, const float* a, const float* b, float* out,
             Isa isa = best_isa());

// ------------------------------------------------------------ data movement

// out = in with its dims permuted: out dim d is in dim perm[d]. Any
// element size. Dims of size 1 are dropped and dims that stay adjacent are
// merged first; what remains is a row copy (the last dim stays last) or a
// batch of 2-D transposes done in small tiles.
void transpose(size_t element_size, size_t rank, const size_t* in_dims, const size_t* perm,
               const void* in, void* out);

// ------------------------------------------------------------ elementwise fp32

// erf with an absolute error below 1e-7 (rational and exp-based
// approximations; NaN stays NaN, |x| >= 3.92 gives exactly +-1).
void erf_f32(size_t n, const float* in, float* out, Isa isa = best_isa());

// x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), with 1 + erf computed without
// cancellation for negative x.
void gelu_f32(size_t n, const float* in, float* out, Isa isa = best_isa());

// e^x within 2 ulp (subnormal results included; overflow gives inf, -inf
// gives 0).
void exp_f32(size_t n, const float* in, float* out, Isa isa = best_isa());

// tanh within 2 ulp (exactly +-1 from |x| = 9.1 on).
void tanh_f32(size_t n, const float* in, float* out, Isa isa = best_isa());

}  // namespace ember::xnnpack
