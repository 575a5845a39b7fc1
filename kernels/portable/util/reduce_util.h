// Reductions over a list of dims (sum.IntList_out, mean.out, and later
// amax, prod, var...).
//
// Prepare: make_reduce_plan() validates `dims` (None or empty = all dims;
// negative dims wrap; repeats are refused), computes the output shape with
// or without keepdim, and splits the input's dims into kept and reduced
// dims with the input's own strides (any dim order).
// Execute: reduce_contiguous() (contiguous input, the fast path every
// reduction kernel uses) reads the input once in memory order with
// unit-stride inner loops; reduce_each() (any dim order) walks the kept dims in output order and, for each
// output element, folds the reduced elements; the innermost reduced dim is
// a unit-stride loop when the input is contiguous there.
#pragma once

#include <cstdint>

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

struct ReducePlan {
  Shape out_shape;
  size_t num_kept = 0, num_reduced = 0;
  int64_t kept_sizes[kMaxTensorDim], kept_strides[kMaxTensorDim];
  int64_t reduced_sizes[kMaxTensorDim], reduced_strides[kMaxTensorDim];
  int64_t reduce_count = 1;  // elements folded into each output
  int64_t out_numel = 1;
  int64_t in_numel = 0;
  // The loop form of a contiguous input, for reduce_contiguous(): adjacent
  // dims that are all kept or all reduced merged into one (size-1 dims
  // dropped), with the output stride of each kept loop (0 when reduced).
  size_t loop_dims = 0;
  int64_t loop_sizes[kMaxTensorDim];
  bool loop_reduced[kMaxTensorDim];
  int64_t loop_out_strides[kMaxTensorDim];
  // True when every reduced element of output o lies in the contiguous
  // range [o * reduce_count, (o + 1) * reduce_count) of the input.
  bool trailing = false;
};

// empty_means_all: whether dims = [] reduces every dim (sum, amax, ...) or
// none (any.dims, all.dims).
bool make_reduce_plan(KernelArgs& args, Tensor in,
                      Optional<Span<int64_t>> dims, bool keepdim,
                      ReducePlan* plan, bool empty_means_all = true);

// The plan for a single `dim` (argmax, max.dim, cumsum, ...): the input as
// [outer, size, inner], contiguous.
struct DimSplit {
  int64_t outer = 1, size = 1, inner = 1;
};
DimSplit split_at_dim(Tensor in, size_t dim);

// Scratch for `count` elements of T from the kernel's temp allocator; fails
// the kernel (MemoryAllocationFailed) when there is none left.
void* reduce_temp(KernelArgs& args, KernelContext& ctx, int64_t count,
                  size_t element_size);

// Calls row(in_offset, out_offset, n, reduced) for every innermost loop of
// a contiguous input in memory order. A reduced row folds its n consecutive
// elements into output out_offset; a kept row folds element j into output
// out_offset + j. Every inner loop is unit-stride on both sides.
template <typename F>
void for_each_reduce_row(const ReducePlan& p, F row) {
  if (p.in_numel == 0 || p.loop_dims == 0) {
    return;
  }
  const size_t last = p.loop_dims - 1;
  const int64_t n = p.loop_sizes[last];
  const bool reduced = p.loop_reduced[last];
  int64_t index[kMaxTensorDim] = {};
  int64_t out_off = 0;
  const int64_t rows = p.in_numel / n;
  for (int64_t r = 0; r < rows; ++r) {
    row(r * n, out_off, n, reduced);
    for (size_t d = last; d-- > 0;) {
      out_off += p.loop_out_strides[d];
      if (++index[d] < p.loop_sizes[d]) {
        break;
      }
      out_off -= p.loop_out_strides[d] * p.loop_sizes[d];
      index[d] = 0;
    }
  }
}

// Contiguous-input reduction: acc_o = init folded with fold(acc, cast<Acc>(x))
// over output o's elements, then out[o] = cast<out dtype>(finish(acc_o)).
// With plan.trailing each output is one contiguous run (no scratch);
// otherwise the input is read once in memory order into an Acc buffer of
// out_numel elements from the temp allocator. Returns false after failing
// the kernel when that scratch is unavailable.
template <typename T, typename Acc, typename Fold, typename Finish>
bool reduce_contiguous(KernelArgs& args, KernelContext& ctx,
                       const ReducePlan& p, const T* in, Tensor out, Acc init,
                       Fold fold, Finish finish) {
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  const int64_t es = int64_t(out.element_size());
  constexpr ScalarType kAcc = scalar_type_of<Acc>();
  if (p.trailing) {
    constexpr int64_t kChunk = 256;
    Acc chunk[kChunk];
    const int64_t count = p.reduce_count;
    for (int64_t o0 = 0; o0 < p.out_numel; o0 += kChunk) {
      const int64_t m = p.out_numel - o0 < kChunk ? p.out_numel - o0 : kChunk;
      for (int64_t i = 0; i < m; ++i) {
        const T* row = in + (o0 + i) * count;
        Acc acc = init;
        for (int64_t j = 0; j < count; ++j) {
          acc = fold(acc, cast_value<Acc>(load_element(row + j)));
        }
        chunk[i] = finish(acc);
      }
      (void)convert_elements(chunk, kAcc, 1, dst + o0 * es, out.scalar_type(),
                             1, m);
    }
    return true;
  }
  Acc* acc = static_cast<Acc*>(reduce_temp(args, ctx, p.out_numel, sizeof(Acc)));
  if (acc == nullptr) {
    return false;
  }
  for (int64_t o = 0; o < p.out_numel; ++o) {
    acc[o] = init;
  }
  for_each_reduce_row(p, [&](int64_t in_off, int64_t out_off, int64_t n,
                             bool reduced) {
    const T* row = in + in_off;
    if (reduced) {
      Acc s = acc[out_off];
      for (int64_t j = 0; j < n; ++j) {
        s = fold(s, cast_value<Acc>(load_element(row + j)));
      }
      acc[out_off] = s;
    } else {
      Acc* d = acc + out_off;
      for (int64_t j = 0; j < n; ++j) {
        d[j] = fold(d[j], cast_value<Acc>(load_element(row + j)));
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    acc[o] = finish(acc[o]);
  }
  (void)convert_elements(acc, kAcc, 1, dst, out.scalar_type(), 1, p.out_numel);
  return true;
}

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
            acc = add(acc, cast_value<Acc>(load_element(row + i)));
          }
        } else {
          for (int64_t i = 0; i < inner; ++i) {
            acc = add(acc, cast_value<Acc>(load_element(row + i * inner_stride)));
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
