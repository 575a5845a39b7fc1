// Matrix products on raw fp32 pointers: packed GEMM, batched GEMM, GEMV.
//
// All matrices are row-major with leading dimensions in elements. B is
// packed once into panels (pack_gemm_b / pack_gemm_bt) and then read in
// order of use; A is read in place. Each output element is one sum in k
// order per chunk of 256, chunks added in order, so results do not depend
// on the thread count or on how rows and columns are split; they may
// differ between ISAs in the last bits (FMA). Nothing here allocates:
// callers pass packing space and workspace.
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

// Applied to each register tile before it is stored:
//   x = sum + col_bias[column] + row_bias[row]
//   x = x * row_scale[row] + row_shift[row]     (with row_scale)
//   x = x * col_scale[column] + col_shift[column] (with col_scale)
//   c = clamp(x, lo, hi)
// Any pointer may be null (a shift must be set with its scale). The
// column arrays are indexed from the first column of the product and must
// hold n floats rounded up to whole panels (gemm_packed_b_floats(1, n));
// the row arrays hold m floats. A NaN stays NaN (the clamp compares).
struct GemmEpilogue {
  const float* col_bias = nullptr;
  const float* row_bias = nullptr;
  const float* row_scale = nullptr;
  const float* row_shift = nullptr;
  const float* col_scale = nullptr;
  const float* col_shift = nullptr;
  float lo = -INFINITY, hi = INFINITY;
};

// The epilogue of the sub-product from (row, col): its arrays offset.
inline GemmEpilogue offset_epilogue(const GemmEpilogue& e, size_t row, size_t col) {
  GemmEpilogue t = e;
  if (t.col_bias) t.col_bias += col;
  if (t.col_scale) t.col_scale += col, t.col_shift += col;
  if (t.row_bias) t.row_bias += row;
  if (t.row_scale) t.row_scale += row, t.row_shift += row;
  return t;
}

// Columns per packed panel.
size_t gemm_panel_width(Isa isa);
// Floats of a packing of a k x n B (n rounded up to whole panels).
size_t gemm_packed_b_floats(size_t k, size_t n, Isa isa);
// Packs B (k x n, row-major with ldb) or B given transposed (bt, n x k
// with ldbt) for `isa`. pack_gemm_bt spreads its panels over the pool.
void pack_gemm_b(size_t k, size_t n, const float* b, size_t ldb, float* packed, Isa isa);
void pack_gemm_bt(size_t k, size_t n, const float* bt, size_t ldbt, float* packed, Isa isa);
// Where element (p, q) of B lives in a packing of `packed_n` columns
// (callers that build B themselves, such as im2col, write it directly).
inline size_t gemm_packed_index(size_t k, size_t packed_n, size_t p, size_t q, size_t nr) {
  constexpr size_t kc_max = 256;
  const size_t width = (packed_n + nr - 1) / nr * nr;
  const size_t k0 = p / kc_max * kc_max;
  const size_t kc = k - k0 < kc_max ? k - k0 : kc_max;
  return k0 * width + (q / nr) * nr * kc + (p - k0) * nr + q % nr;
}

// c[m x n] = a[m x k] x B on the calling thread, where B is columns
// [col0, col0 + n) of a packing of packed_n columns; col0 must be a
// multiple of gemm_panel_width(isa). k == 0 writes the epilogue of zero.
void gemm_f32_packed(size_t m, size_t n, size_t k, const float* a, size_t lda,
                     const float* packed_b, size_t packed_n, size_t col0, float* c, size_t ldc,
                     Isa isa, const GemmEpilogue* epilogue = nullptr);

// gemm_f32_packed with A given transposed: element (i, p) of A at
// at[p * ldat + i] (an NCHW activation, k channels of m pixels, is the
// transpose of the pixels x channels A of a pointwise convolution). Same
// sums in the same order as gemm_f32_packed on the transposed copy.
void gemm_f32_packed_at(size_t m, size_t n, size_t k, const float* at, size_t ldat,
                        const float* packed_b, size_t packed_n, size_t col0, float* c,
                        size_t ldc, Isa isa, const GemmEpilogue* epilogue = nullptr);

// The same product spread over the shared thread pool (row blocks, and
// column ranges when rows are few). Small products run inline.
// `packed_n`: the columns packed_b was packed with, when only its first
// n are wanted (0: n).
void gemm_f32_packed_parallel(size_t m, size_t n, size_t k, const float* a, size_t lda,
                              const float* packed_b, float* c, size_t ldc, Isa isa,
                              const GemmEpilogue* epilogue = nullptr, size_t packed_n = 0);

// Products that share A and read B through row pointers, on the calling
// thread: for each panel j < panels,
//   c[j][m x n[j]] = a[m x k] x B_j,  row p of B_j at rows[j * k + p],
// with n[j] <= gemm_panel_width(isa) and ldc the row stride of every
// c[j]. Each row is read a whole panel wide (gemm_panel_width floats must
// be readable from every row pointer); columns past n[j] are computed and
// not stored. Same sums, in the same order, as the packed product. For
// convolutions whose pixel rows are rows of the (padded) input.
struct RowsProduct {
  size_t m = 0, k = 0, panels = 0;
  const float* a = nullptr;
  size_t lda = 0;
  const float* const* rows = nullptr;
  float* const* c = nullptr;
  const size_t* n = nullptr;
  size_t ldc = 0;
  const GemmEpilogue* epilogue = nullptr;  // rows indexed from a's first row
};
void gemm_f32_rows(const RowsProduct& product, Isa isa);

// c[m x n] = a[m x k] x b[k x n] with leading dims on the calling thread,
// B read in place: right-edge columns go through a padded copy on the
// stack. Best when k x ldb does not alias in L1 (a large power-of-two-ish
// ldb with k above ~32 does).
void gemm_f32_inplace(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
                      size_t ldb, float* c, size_t ldc, Isa isa,
                      const GemmEpilogue* epilogue = nullptr);

// c[m x n] = a[m x k] x b[k x n] with leading dims, B read in place (no
// packing, so no memory needed), spread over the pool by row blocks, or
// column ranges when the rows are few.
void gemm_f32(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
              size_t ldb, float* c, size_t ldc, Isa isa = best_isa());

// out[i] = a[i] x b[i] for each of `batch` products, [m x k] x [k x n],
// contiguous; a_stride / b_stride are the element distance between
// consecutive batch items (0 broadcasts one matrix). B is read in place
// (no packing; right-edge tiles go through a padded copy on the stack).
// Spread over the pool by batch and row blocks.
void bmm_f32(size_t batch, size_t m, size_t n, size_t k, const float* a, size_t a_stride,
             const float* b, size_t b_stride, float* out, Isa isa = best_isa());

// bmm_f32 with m == 1 is the matrix-vector product x B: one row streamed
// against B in place. The other orientation is gemv_rows_f32 below.

// y[i] = sum over p < k of a[i * lda + p] * x[p], for i < m: each row of
// A against one vector, A read in place (attention scores of one query
// against a key cache, where packing the keys would cost as much as the
// product). Row blocks go to the pool when the product is large. Each
// row's sum: vector lanes in order, then the tail in order.
// With `pool` false, on the calling thread whatever the size (inside a
// pool task).
void gemv_rows_f32(size_t m, size_t k, const float* a, size_t lda, const float* x, float* y,
                   Isa isa = best_isa(), bool pool = true);

// y[0:n) = x[0:m) A: the sum over i < m of x[i] times row i of A
// (a[i * lda + 0:n)), on the calling thread, A read in place one whole row
// after another (attention's probabilities times a value cache: a panel of
// columns at a time would cross a page per row when rows are a page
// apart, as a cache of 8 heads of 128 is). Each output sums over i in
// order; with `accumulate`, onto y's values (so rows given in blocks, in
// order, sum as they would in one call).
void vecmat_rows_f32(size_t m, size_t n, const float* x, const float* a, size_t lda, float* y,
                     Isa isa = best_isa(), bool accumulate = false);

}  // namespace ember::math
