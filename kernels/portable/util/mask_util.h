// Boolean-mask walks shared by masked_select and masked_scatter: the data
// and the mask broadcast to a common shape and are walked together in
// row-major order (Odometer, index_util.h), any dim orders.
#pragma once

#include <cstdint>

#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Fails unless `mask` has dtype Bool (PyTorch refuses the old Byte masks
// in these ops).
bool check_bool_mask(KernelArgs& args, Tensor mask);

// row[d] = t's stride (elements) along dim d of `shape`, 0 where t is
// broadcast (a size-1 or missing leading dim). t must broadcast to shape.
void broadcast_strides(Tensor t, const Shape& shape, int64_t* row);

// True when the mask's element at `offset` is set: read as a byte, so a
// hostile value other than 0 or 1 is simply true.
inline bool mask_at(const uint8_t* mask, int64_t offset) {
  return mask[offset] != 0;
}

// The number of true entries of the Bool `mask` broadcast to `shape`.
int64_t count_true(Tensor mask, const Shape& shape);

// Broadcasts self and mask together into *shape and sets *count to the
// number of true entries of the mask there; false after failing the kernel.
bool broadcast_mask(KernelArgs& args, Tensor self, Tensor mask, Shape* shape,
                    int64_t* count);

}  // namespace ember
