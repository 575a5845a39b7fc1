// Splitting a tensor along one dim into a list of out tensors (split_copy,
// split_with_sizes_copy, unbind_copy).
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Writes self[offset_i : offset_i + sizes[i]] along `dim` into outs[i]
// (with `dim` removed when `squeeze`, sizes[i] then being 1). Checks every
// out's dtype, resizes it, and fails unless the sizes sum to self's size
// along dim. `dim` must already be normalized.
bool split_into(KernelArgs& args, Tensor self, size_t dim,
                const int64_t* sizes, size_t count, Span<Tensor> outs,
                bool squeeze);

}  // namespace ember
