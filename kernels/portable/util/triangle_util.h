// tril/triu: keep the lower or upper triangle of the last two dims.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// out[..., i, j] = self[..., i, j] if (upper ? j - i >= diagonal
// : j - i <= diagonal), else zero. Checks dtypes and shapes (at least 2-D),
// resizes out. Contiguous self and out.
void triangle_copy(KernelArgs& args, Tensor self, int64_t diagonal, Tensor out,
                   bool upper);

}  // namespace ember
