// Strided element conversion between any two storage types, with one
// dtype switch per call (not per element). Used by the elementwise loops
// to load operands of another dtype and to store results, and by the copy
// kernels.
#pragma once

#include <cstdint>

#include "runtime/core/scalar_type.h"

namespace ember {

// dst[i * dst_stride] = cast(src[i * src_stride]) for i in [0, n); strides
// in elements (a zero src_stride broadcasts one value). Returns false, doing
// nothing, if either type is not a storage type (dtype_util.h).
bool convert_elements(const void* src, ScalarType src_type, int64_t src_stride,
                      void* dst, ScalarType dst_type, int64_t dst_stride,
                      int64_t n);

}  // namespace ember
