// Argument checks shared by mm, bmm and addmm.
#pragma once

#include "kernels/portable/util/kernel_args.h"
#include "runtime/core/tensor.h"

namespace ember {

// Fails unless every tensor is contiguous, has `dim` dims and shares
// tensors[0]'s dtype, which must be Float or Double.
bool check_matmul_operands(KernelArgs& args, const Tensor* tensors,
                           const char* const* names, size_t count, size_t dim);

}  // namespace ember
