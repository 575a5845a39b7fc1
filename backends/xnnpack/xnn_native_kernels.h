// The loops behind the delegate's native steps (xnn_native_ops.cpp),
// on raw pointers and shapes, so they can be tested against plain
// reference loops (test/xnnpack/native_ops_test.cpp).
//
// Every function spreads its work over the shared thread pool
// (parallel_for), never allocates, and gives the same result for every
// thread count. `isa` selects the instruction set (xnn_simd.h); it must
// satisfy isa_supported(). Inputs and outputs must not overlap.
#pragma once

#include <cmath>
#include <cstddef>

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_simd.h"

namespace ember::xnnpack {

// Products with fewer multiply-adds than this run on the calling thread:
// waking the pool would cost more than the work (gemv_f32, conv2d_f32).
constexpr size_t kInlineMacs = size_t(1) << 16;

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

// One product c[m x n] = a[m x k] x B on the calling thread, B packed
// once by pack_gemm_b() (B row-major, k x n) or pack_gemm_bt() (B given
// transposed, n x k) for the same isa into gemm_packed_b_floats() floats.
// gemm_f32_packed multiplies by columns [col0, col0 + n) of a packing of
// packed_n columns; col0 must be a multiple of gemm_panel_width(). Same
// tiles and k order as bmm_f32. With an epilogue, every element is then
// clamp(sum + bias[column], lo, hi), applied while the tile is still in
// registers; `bias` (indexed from col0) must hold n floats rounded up to
// whole panels.
struct GemmEpilogue {
  const float* bias;
  float lo, hi;
};
size_t gemm_panel_width(Isa isa);
size_t gemm_packed_b_floats(size_t k, size_t n, Isa isa);
void pack_gemm_b(size_t k, size_t n, const float* b, size_t ldb, float* packed, Isa isa);
void pack_gemm_bt(size_t k, size_t n, const float* bt, size_t ldbt, float* packed, Isa isa);
void gemm_f32_packed(size_t m, size_t n, size_t k, const float* a, size_t lda,
                     const float* packed_b, size_t packed_n, size_t col0, float* c, size_t ldc,
                     Isa isa, const GemmEpilogue* epilogue = nullptr);

// y[j] = clamp(bias[j] + sum_p x[p] * w[j * k + p], lo, hi) for j < n:
// one row of input times weights [n, k] read in place (nothing packed).
// `bias` may be null. Sums in k order per vector lane, lanes added in
// order, one thread per output.
void gemv_f32(size_t n, size_t k, const float* x, const float* w, const float* bias, float lo,
              float hi, float* y, Isa isa = best_isa());

// ------------------------------------------------------------ convolution

// 2-D convolution, one group, fp32, NHWC input [batch, in_h, in_w, in_c]
// and output [batch, out_h, out_w, out_c], OHWI weights [out_c, kernel_h,
// kernel_w, in_c]: an im2col block of output pixels times the packed
// weights, then bias and the [out_min, out_max] clamp. Padding reads as
// zero. The caller checked that out_h/out_w follow from the rest.
struct Conv2dShape {
  size_t batch = 1, in_h = 0, in_w = 0, in_c = 0;
  size_t out_h = 0, out_w = 0, out_c = 0;
  size_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  size_t dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
  float out_min = -INFINITY, out_max = INFINITY;
};

// Floats of the packed weights and bias (conv2d_pack_weights).
size_t conv2d_packed_floats(const Conv2dShape& s, Isa isa = best_isa());
// `bias` may be null (zeros).
void conv2d_pack_weights(const Conv2dShape& s, const float* ohwi, const float* bias,
                         float* packed, Isa isa = best_isa());
// The same for a 1x1 convolution whose filter is given as [in_c, out_c]
// (a fully connected layer with transposed weights).
void conv2d_pack_weights_io(const Conv2dShape& s, const float* io, const float* bias,
                            float* packed, Isa isa = best_isa());
// Floats of im2col workspace for `slots` concurrent workers.
size_t conv2d_workspace_floats(const Conv2dShape& s, size_t slots);
// Spreads pixel blocks (and, when there are few, column ranges) over at
// most `slots` workers, each with its own part of `workspace`, each
// worker on a contiguous range of pixels; products under 64K multiply-adds
// stay on the calling thread. The blocking depends on the shape only, so
// the bits do not depend on the thread count or on `slots`.
void conv2d_f32(const Conv2dShape& s, const float* in, const float* packed, float* out,
                float* workspace, size_t slots, Isa isa = best_isa());

// ------------------------------------------------------------ data movement

// out = in with its dims permuted: out dim d is in dim perm[d]. Any
// element size. Dims of size 1 are dropped and dims that stay adjacent are
// merged first; what remains is a row copy (the last dim stays last) or a
// batch of 2-D transposes done in small tiles.
void transpose(size_t element_size, size_t rank, const size_t* in_dims, const size_t* perm,
               const void* in, void* out);

// dst[i * ds + j] = src[i + j * ss] for i < ni, j < nj, fp32, on the
// calling thread (the same tiled kernel as transpose()).
void transpose_2d_f32(size_t ni, size_t nj, const float* src, size_t ss, float* dst,
                      size_t ds);

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
