// Data movement shared by the copy, view-copy and scatter kernels. Each
// function copies every element of its source or out, converting dtype
// when needed (plain memmove for unit-stride runs of equal dtype).
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

// The reverse, for the scatter kernels: dst_data[sum_d i_d * dst_strides[d]]
// = src[i0, i1, ...] for every index of src (any dim order), converted to
// dst_type, with dst_strides given per dim of src (in elements). The caller
// guarantees every such index lies inside the destination. Where the
// destination overlaps src the values are unspecified (each run is moved
// with memmove or converted element by element; nothing is read or written
// outside the two).
void copy_into_strided_view(Tensor src, void* dst_data, ScalarType dst_type,
                            const int64_t* dst_strides);

}  // namespace ember
