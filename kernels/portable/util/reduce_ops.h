// Shared prepare steps and element folds for the reduction kernels (sum,
// mean, prod, amax, amin, max, min, argmax, argmin, var, any, all, cumsum,
// logsumexp).
//
// Every reduction kernel requires contiguous `self` and `out` (refused with
// NotSupported otherwise) and reads the input with unit-stride loops
// (reduce_util.h). Failures are recorded through KernelArgs.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/math_util.h"
#include "kernels/portable/util/reduce_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// The type a kernel compares and accumulates T in: float for Half and
// BFloat16, T otherwise.
template <typename T>
using ComputeType = typename std::conditional<is_reduced_float_v<T>, float, T>::type;

// Checks dtypes and contiguity, builds the plan for `dims` (None or [] =
// all dims) and resizes `out`. With `nonempty` it refuses a reduction over
// a zero-size dim (amax, amin: PyTorch has no identity for them).
//
// For prepared kernels (docs/custom_kernels.md), both prologues skip the
// dtype and contiguity checks in Prepared mode; `dims` / `dim` are values
// (an Int may change between executions), so the plan, its checks and the
// out shape are computed at every call and out's shape only compared
// (match_out_shape). Neither stops a Prepare call: the kernel ends its
// checks with checks_done() (shape_util.h).
bool reduce_prologue(KernelArgs& a, Tensor self, Optional<Span<int64_t>> dims,
                     bool keepdim, Tensor out, bool nonempty, ReducePlan* plan,
                     bool empty_means_all = true);

// Same for one dim (max.dim, argmax, ...): `dim` None flattens the input.
// Computes the [outer, size, inner] split and the output shape, and
// resizes every tensor in outs (count of them).
bool dim_prologue(KernelArgs& a, Tensor self, Optional<int64_t> dim,
                  bool keepdim, const Tensor* outs, size_t count, bool nonempty,
                  DimSplit* split);

// Fails unless `t` has a floating dtype.
bool require_floating(KernelArgs& a, Tensor t, const char* what);

// max_propagate_nan / min_propagate_nan: util/math_util.h (the first NaN
// wins, as in PyTorch).

// The identities of max and min: -inf / +inf for floating types, the
// type's limits otherwise.
template <typename C>
inline C lowest_value() {
  return std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                              : std::numeric_limits<C>::lowest();
}

template <typename C>
inline C highest_value() {
  return std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity()
                                              : std::numeric_limits<C>::max();
}

template <typename C>
inline bool is_nan_value(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// Index reduction over the middle dim of [outer, size, inner] (argmax,
// argmin, max.dim, min.dim): for every (outer, inner) position the index
// of the first maximum (kMax) or minimum, a NaN beating everything (the
// first NaN). values may be null. The inner positions are processed in
// blocks held on the stack, so the loops over inner are unit-stride.
template <typename T, bool kMax>
void arg_reduce(const DimSplit& s, const T* in, T* values, int64_t* indices) {
  using C = ComputeType<T>;
  constexpr int64_t kBlock = 128;
  C best[kBlock];
  int64_t where[kBlock];
  for (int64_t o = 0; o < s.outer; ++o) {
    const T* base = in + o * s.size * s.inner;
    for (int64_t j0 = 0; j0 < s.inner; j0 += kBlock) {
      const int64_t m = s.inner - j0 < kBlock ? s.inner - j0 : kBlock;
      for (int64_t j = 0; j < m; ++j) {
        best[j] = static_cast<C>(load_element(base + j0 + j));  // Bool: any nonzero byte
        where[j] = 0;
      }
      for (int64_t r = 1; r < s.size; ++r) {
        const T* row = base + r * s.inner + j0;
        for (int64_t j = 0; j < m; ++j) {
          const C v = static_cast<C>(load_element(row + j));
          const bool better = kMax ? v > best[j] : v < best[j];
          if (!is_nan_value(best[j]) && (better || is_nan_value(v))) {
            best[j] = v;
            where[j] = r;
          }
        }
      }
      const int64_t out_base = o * s.inner + j0;
      for (int64_t j = 0; j < m; ++j) {
        indices[out_base + j] = where[j];
        if (values != nullptr) {
          values[out_base + j] = T(best[j]);
        }
      }
    }
  }
}

}  // namespace ember
