// Shared by the reflection_pad{1,2,3}d and replication_pad{1,2,3}d kernels:
// argument checks, the output shape, and the copy that maps every output
// position of the last 1, 2 or 3 dims to the input position it repeats.
//
// padding holds (before, after) pairs starting from the last dim, as in
// PyTorch; negative entries crop. An output coordinate o of a padded dim
// stands for input coordinate v = o - before; reflection mirrors v about
// the first and last element (no repeat of the edge), replication clamps
// it to the edge.
#pragma once

#include <cstdint>

#include "runtime/kernel/kernel_args.h"

namespace ember {

enum class PadMode : uint8_t { Reflect, Replicate };

// The input coordinate that output coordinate `o` repeats, for a dim of
// `size` elements padded with `before` in front. Reflection needs
// |v| < size, which pad_out() guarantees by requiring each pad < size.
inline int64_t pad_source_index(int64_t o, int64_t size, int64_t before, PadMode mode) {
  int64_t v = o - before;
  if (mode == PadMode::Replicate) {
    return v < 0 ? 0 : v >= size ? size - 1 : v;
  }
  if (v < 0) {
    v = -v;
  }
  return v >= size ? 2 * (size - 1) - v : v;
}

// The whole kernel after argument unpacking: checks that `in` has
// `spatial` + 1 (unbatched) or `spatial` + 2 (batched) dims, that padding
// has 2 * spatial entries, PyTorch's limits (every dim but the first
// nonzero; reflection pads smaller than the dim they pad; every padded
// size at least 1), resizes `out` and copies. Any dtype; `in` and `out`
// contiguous, same dtype. Failures are recorded through `a`.
void pad_out(KernelArgs& a, Tensor in, Span<int64_t> padding, size_t spatial,
             PadMode mode, Tensor out);

}  // namespace ember
