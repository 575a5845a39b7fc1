// Reductions over a list of dims (sum.IntList_out, mean.out, and later
// amax, prod, var...).
//
// Prepare: make_reduce_plan() validates `dims` (None or empty = all dims;
// negative dims wrap; repeats are refused), computes the output shape with
// or without keepdim, and splits the input's dims into kept and reduced
// dims with the input's own strides (any dim order).
// Execute: reduce_each() walks the kept dims in output order and, for each
// output element, folds the reduced elements; the innermost reduced dim is
// a unit-stride loop when the input is contiguous there.
#pragma once

#include <cstdint>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/kernel_args.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"

namespace ember {

struct ReducePlan {
  Shape out_shape;
  size_t num_kept = 0, num_reduced = 0;
  int64_t kept_sizes[kMaxTensorDim], kept_strides[kMaxTensorDim];
  int64_t reduced_sizes[kMaxTensorDim], reduced_strides[kMaxTensorDim];
  int64_t reduce_count = 1;  // elements folded into each output
  int64_t out_numel = 1;
};

bool make_reduce_plan(KernelArgs& args, Tensor in,
                      Optional<Span<int64_t>> dims, bool keepdim,
                      ReducePlan* plan);

// For each output element i (in row-major order of the output shape),
// calls emit(i, acc) where acc = init folded with add(acc, cast<Acc>(x))
// over its reduced elements.
template <typename T, typename Acc, typename Add, typename Emit>
void reduce_each(const ReducePlan& p, const T* in, Acc init, Add add,
                 Emit emit) {
  int64_t kept_index[kMaxTensorDim] = {};
  int64_t base = 0;
  for (int64_t o = 0; o < p.out_numel; ++o) {
    Acc acc = init;
    if (p.reduce_count > 0) {
      const size_t last = p.num_reduced == 0 ? 0 : p.num_reduced - 1;
      const int64_t inner = p.num_reduced == 0 ? 1 : p.reduced_sizes[last];
      const int64_t inner_stride =
          p.num_reduced == 0 ? 0 : p.reduced_strides[last];
      int64_t red_index[kMaxTensorDim] = {};
      int64_t off = base;
      const int64_t rows = p.reduce_count / inner;
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = in + off;
        if (inner_stride == 1) {
          for (int64_t i = 0; i < inner; ++i) {
            acc = add(acc, cast_value<Acc>(row[i]));
          }
        } else {
          for (int64_t i = 0; i < inner; ++i) {
            acc = add(acc, cast_value<Acc>(row[i * inner_stride]));
          }
        }
        for (size_t d = last; d-- > 0;) {
          off += p.reduced_strides[d];
          if (++red_index[d] < p.reduced_sizes[d]) {
            break;
          }
          off -= p.reduced_strides[d] * p.reduced_sizes[d];
          red_index[d] = 0;
        }
      }
    }
    emit(o, acc);
    for (size_t d = p.num_kept; d-- > 0;) {
      base += p.kept_strides[d];
      if (++kept_index[d] < p.kept_sizes[d]) {
        break;
      }
      base -= p.kept_strides[d] * p.kept_sizes[d];
      kept_index[d] = 0;
    }
  }
}

}  // namespace ember
