// Ordering along one dim for sort and topk.
//
// sort_slices() visits every slice of `self` along `dim` (any dim order),
// orders the slice's positions with PyTorch's comparison (NaN above every
// number; ties keep their original order, i.e. a stable sort), and writes
// the first `k` values and their int64 positions along `dim` of `values` and
// `indices` (shaped like self with `k` at dim). Scratch for one slice's
// positions comes from the context's temp memory. partial=true sorts only
// the first k (topk).
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

bool sort_slices(KernelArgs& args, KernelContext& ctx, Tensor self, size_t dim,
                 int64_t k, bool descending, bool partial, Tensor values,
                 Tensor indices);

}  // namespace ember
