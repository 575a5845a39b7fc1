// Filling a tensor with one Scalar value (full, full_like, and later zeros,
// ones, fill).
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Writes `value`, cast to t's dtype, to every element (a float into an
// integral tensor truncates, as torch.full does). Fails for an unsupported
// dtype or a value outside the dtype's range.
bool fill_with_scalar(KernelArgs& args, Tensor t, const Scalar& value);

}  // namespace ember
