// Softmax and log-softmax along the middle dim of [outer, size, inner]
// (shared by _softmax and _log_softmax). Numerically stable: the maximum is
// subtracted first; a NaN in a slice makes the whole slice NaN, and +inf or
// an all -inf slice gives NaN, as in PyTorch. For inner > 1 the inner
// positions go in stack blocks, so every loop is unit-stride.
//
// softmax_kernel<kLog>(): the body of both operators,
//   <op>.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out)
// computed in float (double for Double); half_to_float must be false (as
// upstream); floating dtypes; out has self's dtype; contiguous tensors.
// Each operator's file registers softmax_kernel<kLog> for its own kLog.
//
// A prepared kernel (docs/custom_kernels.md): Prepared calls skip the
// dtype and contiguity checks and the resize (out has self's shape, static
// and sized at load); half_to_float and dim are values, read and checked
// at every call, and the [outer, size, inner] split follows dim.
#pragma once

#include <type_traits>

#include "kernels/math/vmath.h"

#include <cmath>
#include <cstdint>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

template <typename T, bool kLog>
void softmax_slices(const DimSplit& s, const T* in, T* out) {
  if constexpr (std::is_same_v<T, float>) {
    // Float: the kernel maths library's vector softmax (kernels/math/
    // vmath.h); the loops below are the reference for the other dtypes.
    math::softmax_f32(size_t(s.outer), size_t(s.size), size_t(s.inner), in, out, kLog);
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

template <bool kLog>
void softmax_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kLog ? "aten::_log_softmax.out" : "aten::_softmax.out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const bool half_to_float = a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() ||
      (!a.prepared() && (!require_floating(a, self, "self") || !check_same_dtype(a, self, out)))) {
    return;
  }
  if (half_to_float) {
    a.fail(Error::NotSupported, "half_to_float = true is not supported");
    return;
  }
  DimSplit split;
  if (!dim_prologue(a, self, Optional<int64_t>(dim), true, nullptr, 0, false, &split) ||
      (!a.prepared() &&
       (!check_contiguous(a, out, "out") || !resize_out(a, out, shape_of(self).span()))) ||
      !checks_done(a)) {
    return;
  }
  visit_float_double_half_bfloat16_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    softmax_slices<T, kLog>(split, self.const_data_ptr<T>(), out.mutable_data_ptr<T>());
  });
}

}  // namespace ember
