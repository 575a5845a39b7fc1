// Data movement shared by the copy and view-copy kernels. Both functions
// write every element of `out` in its own dim order, converting dtype when
// needed (plain memcpy for unit-stride runs of equal dtype).
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// out[idx] = src[idx] for every index of out, src broadcast to out's shape
// (fails with InvalidArgument otherwise). Any dim orders, any storage types.
bool copy_broadcast(KernelArgs& args, Tensor src, Tensor out);

// out[i0, i1, ...] = src_data[sum_d i_d * src_strides[d]], with
// src_strides given per dim of out (in elements; 0 repeats). The caller
// guarantees every such index lies inside the source.
void copy_strided_view(const void* src_data, ScalarType src_type,
                       const int64_t* src_strides, Tensor out);

}  // namespace ember
