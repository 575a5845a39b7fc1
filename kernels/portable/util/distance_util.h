// The p-norm distance between two rows, shared by aten::_cdist_forward.out
// and aten::_pdist_forward.out, with PyTorch's rules for each p:
//
//   p == 0    the count of coordinates that differ (a NaN difference
//             makes the count NaN)
//   p == 1    sum |a - b|
//   p == 2    sqrt(sum (a - b)^2)
//   p == inf  max |a - b|
//   other p   (sum |a - b|^p)^(1/p)
//
// Sums run in T (as PyTorch's CPU kernels do), so an overflow to inf there
// is PyTorch's overflow too. PyTorch's two operators differ on one point:
// cdist's inf-norm skips NaN differences (a running max that keeps its value
// when a comparison is false), pdist's propagates them; `max_keeps_nan`
// selects pdist's rule.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/portable/util/math_util.h"

namespace ember {

enum class NormKind { Zero, One, Two, Inf, General };

inline NormKind norm_kind(double p) {
  if (p == 0.0) return NormKind::Zero;
  if (p == 1.0) return NormKind::One;
  if (p == 2.0) return NormKind::Two;
  if (std::isinf(p)) return NormKind::Inf;
  return NormKind::General;
}

template <typename T>
T pnorm_distance(NormKind kind, T p, const T* a, const T* b, int64_t m, bool max_keeps_nan) {
  T acc = T(0);
  switch (kind) {
    case NormKind::Zero:
      for (int64_t i = 0; i < m; ++i) {
        const T d = a[i] - b[i];
        acc += std::isnan(d) ? d : T(d != T(0));
      }
      return acc;
    case NormKind::One:
      for (int64_t i = 0; i < m; ++i) {
        acc += std::abs(a[i] - b[i]);
      }
      return acc;
    case NormKind::Two:
      for (int64_t i = 0; i < m; ++i) {
        const T d = a[i] - b[i];
        acc += d * d;
      }
      return std::sqrt(acc);
    case NormKind::Inf:
      for (int64_t i = 0; i < m; ++i) {
        const T d = std::abs(a[i] - b[i]);
        acc = max_keeps_nan ? max_propagate_nan(acc, d) : (d > acc ? d : acc);
      }
      return acc;
    case NormKind::General:
      for (int64_t i = 0; i < m; ++i) {
        acc += std::pow(std::abs(a[i] - b[i]), p);
      }
      return std::pow(acc, T(1) / p);
  }
  return acc;
}

}  // namespace ember
