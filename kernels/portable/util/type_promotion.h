// PyTorch's type promotion for the ten storage types (dtype_util.h).
//
// promote_types() is c10::promoteTypes; result_type() adds the priority
// rules of torch.result_type: dimensioned tensors win over zero-dim tensors,
// which win over Python scalars, unless the lower-priority operand is of a
// higher category (bool < integral < floating). can_cast() is
// torch.can_cast for writing a result into an `out` tensor.
#pragma once

#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// False (and *out untouched) when either type is outside the supported set.
bool promote_types(ScalarType a, ScalarType b, ScalarType* out);

// The dtype a Python scalar contributes: Bool, Long or Float (the default
// dtype, as PyTorch uses for float scalars).
ScalarType scalar_dtype(const Scalar& s);

// torch.result_type(a, b) for two tensors (zero-dim rule included).
bool result_type(Tensor a, Tensor b, ScalarType* out);
// torch.result_type(t, s) for a tensor and a scalar.
bool result_type(Tensor t, const Scalar& s, ScalarType* out);

// torch.can_cast(from, to): no floating -> integral, no non-bool -> bool.
bool can_cast(ScalarType from, ScalarType to);

}  // namespace ember
