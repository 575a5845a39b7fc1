// One index along one dim, shared by select_copy and select_scatter: the
// checks (a 0-D tensor cannot be selected from; dim and index may be
// negative, counting from the end; out of range is an error) and the
// strided view of the selected slice.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

struct SelectView {
  size_t dim = 0;      // the normalized dim
  int64_t index = 0;   // the normalized index, in [0, size of dim)
  Shape shape;         // t's sizes without `dim`
  int64_t strides[kMaxTensorDim] = {};  // t's strides without `dim`
  int64_t byte_offset = 0;  // where the slice starts in t's storage
};

// Normalizes dim and index for t and fills *v; returns false after failing
// the kernel.
bool select_view(KernelArgs& args, Tensor t, int64_t dim, int64_t index, SelectView* v);

}  // namespace ember
