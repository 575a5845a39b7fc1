// The reference GEMM of the portable kernels: Double (and Float products
// with alpha != 1 or an accumulating beta that found no temp memory) run
// it; a plain Float product (alpha 1, beta 0) goes to the optimized
// library's GEMM (kernels/math/gemm.h), which is tested against
// this one's results through the operator tests.
//
//   c[m x n] = beta * c + alpha * a[m x k] * b[k x n]
//
// row-major with leading dimensions (elements). The loop order is i-k-j:
// the innermost loop streams one row of b into four rows of c at once, so
// it is unit-stride, reuses each loaded b value four times, and the
// compiler vectorizes it. Columns are blocked so the four c row segments
// stay in L1 while k runs. beta == 0 ignores c's old contents (NaN
// included), as BLAS and PyTorch do.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/math/gemm.h"
#include "runtime/platform/threadpool.h"

namespace ember {

namespace detail {

constexpr int64_t kGemmColumnBlock = 512;

template <typename T>
inline void axpy_rows4(int64_t n, T a0, T a1, T a2, T a3,
                       const T* __restrict b, T* __restrict c0,
                       T* __restrict c1, T* __restrict c2, T* __restrict c3) {
  for (int64_t j = 0; j < n; ++j) {
    const T bj = b[j];
    c0[j] += a0 * bj;
    c1[j] += a1 * bj;
    c2[j] += a2 * bj;
    c3[j] += a3 * bj;
  }
}

template <typename T>
inline void axpy_row(int64_t n, T a0, const T* __restrict b,
                     T* __restrict c0) {
  for (int64_t j = 0; j < n; ++j) {
    c0[j] += a0 * b[j];
  }
}

}  // namespace detail

template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    if (beta == T(0)) {
      for (int64_t j = 0; j < n; ++j) {
        row[j] = T(0);
      }
    } else if (beta != T(1)) {
      for (int64_t j = 0; j < n; ++j) {
        row[j] *= beta;
      }
    }
  }
  if (alpha == T(0)) {
    return;
  }
  for (int64_t j0 = 0; j0 < n; j0 += detail::kGemmColumnBlock) {
    const int64_t nb =
        n - j0 < detail::kGemmColumnBlock ? n - j0 : detail::kGemmColumnBlock;
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) {
      const T* a0 = a + i * lda;
      T* c0 = c + i * ldc + j0;
      for (int64_t p = 0; p < k; ++p) {
        detail::axpy_rows4(nb, alpha * a0[p], alpha * a0[lda + p],
                           alpha * a0[2 * lda + p], alpha * a0[3 * lda + p],
                           b + p * ldb + j0, c0, c0 + ldc, c0 + 2 * ldc,
                           c0 + 3 * ldc);
      }
    }
    for (; i < m; ++i) {
      const T* a0 = a + i * lda;
      T* c0 = c + i * ldc + j0;
      for (int64_t p = 0; p < k; ++p) {
        detail::axpy_row(nb, alpha * a0[p], b + p * ldb + j0, c0);
      }
    }
  }
}

// gemm() spread over the shared thread pool: rows are split into blocks
// (multiples of 4, so each block keeps the 4-row kernel), or columns when
// there are too few rows. Each element of c is computed by exactly the
// same operations as in gemm(), so the result does not depend on the
// thread count. Small products run inline.
template <typename T>
void gemm_parallel(int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                   int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                   int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    // The plain product is the kernel maths library's (B read in place).
    if (alpha == 1.0f && beta == 0.0f) {
      math::gemm_f32(size_t(m), size_t(n), size_t(k), a, size_t(lda), b, size_t(ldb), c,
                    size_t(ldc));
      return;
    }
  }
  const int64_t threads = int64_t(num_threads());
  if (threads <= 1 || m * n * k < (int64_t(1) << 16)) {
    gemm<T>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  if (m >= 8 * threads || n < 64 * threads) {
    // Row blocks: about four per thread for balance, multiples of 4 rows.
    int64_t rows = (m + 4 * threads - 1) / (4 * threads);
    rows = (rows + 3) / 4 * 4;
    const int64_t blocks = (m + rows - 1) / rows;
    parallel_for(size_t(blocks), [&](size_t i) {
      const int64_t r0 = int64_t(i) * rows;
      const int64_t mr = m - r0 < rows ? m - r0 : rows;
      gemm<T>(mr, n, k, alpha, a + r0 * lda, lda, b, ldb, beta, c + r0 * ldc, ldc);
    });
    return;
  }
  int64_t cols = (n + 2 * threads - 1) / (2 * threads);
  cols = (cols + 15) / 16 * 16;
  const int64_t blocks = (n + cols - 1) / cols;
  parallel_for(size_t(blocks), [&](size_t i) {
    const int64_t c0 = int64_t(i) * cols;
    const int64_t nc = n - c0 < cols ? n - c0 : cols;
    gemm<T>(m, nc, k, alpha, a, lda, b + c0, ldb, beta, c + c0, ldc);
  });
}

}  // namespace ember
