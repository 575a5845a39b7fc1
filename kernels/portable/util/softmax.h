// Softmax and log-softmax along the middle dim of [outer, size, inner]
// (shared by _softmax and _log_softmax). Numerically stable: the maximum is
// subtracted first; a NaN in a slice makes the whole slice NaN, and +inf or
// an all -inf slice gives NaN, as in PyTorch. For inner > 1 the inner
// positions go in stack blocks, so every loop is unit-stride.
#pragma once

#include <type_traits>

#include "kernels/optimized/vmath.h"

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"

namespace ember {

template <typename T, bool kLog>
void softmax_slices(const DimSplit& s, const T* in, T* out) {
  if constexpr (std::is_same_v<T, float>) {
    // Float: the optimized library's vector softmax (kernels/optimized/
    // vmath.h); the loops below are the reference for the other dtypes.
    opt::softmax_f32(size_t(s.outer), size_t(s.size), size_t(s.inner), in, out, kLog);
    return;
  }
  using C = OpMath<T>;
  constexpr int64_t kBlock = 64;
  C mx[kBlock], sum[kBlock];
  for (int64_t o = 0; o < s.outer; ++o) {
    const int64_t base = o * s.size * s.inner;
    for (int64_t j0 = 0; j0 < s.inner; j0 += kBlock) {
      const int64_t m = s.inner - j0 < kBlock ? s.inner - j0 : kBlock;
      for (int64_t j = 0; j < m; ++j) {
        mx[j] = -INFINITY;
        sum[j] = 0;
      }
      for (int64_t r = 0; r < s.size; ++r) {
        const T* row = in + base + r * s.inner + j0;
        for (int64_t j = 0; j < m; ++j) {
          mx[j] = max_propagate_nan(mx[j], C(row[j]));
        }
      }
      for (int64_t r = 0; r < s.size; ++r) {
        const T* row = in + base + r * s.inner + j0;
        for (int64_t j = 0; j < m; ++j) {
          sum[j] += std::exp(C(row[j]) - mx[j]);
        }
      }
      for (int64_t r = 0; r < s.size; ++r) {
        const T* row = in + base + r * s.inner + j0;
        T* orow = out + base + r * s.inner + j0;
        for (int64_t j = 0; j < m; ++j) {
          if (kLog) {
            orow[j] = T(C(row[j]) - mx[j] - std::log(sum[j]));
          } else {
            orow[j] = T(std::exp(C(row[j]) - mx[j]) / sum[j]);
          }
        }
      }
    }
  }
}

}  // namespace ember
