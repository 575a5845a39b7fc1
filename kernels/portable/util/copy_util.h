// Data movement shared by the copy, view-copy and scatter kernels. Each
// function copies every element of its source or out, converting dtype
// when needed (plain memmove for unit-stride runs of equal dtype).
#pragma once

#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// out[idx] = src[idx] for every index of out, src broadcast to out's shape
// (fails with InvalidArgument otherwise). Any dim orders, any storage types.
bool copy_broadcast(KernelArgs& args, Tensor src, Tensor out);

// out[i0, i1, ...] = src_data[sum_d i_d * src_strides[d]], with
// src_strides given per dim of out (in elements; 0 repeats). The caller
// guarantees every such index lies inside the source. A complex src_type
// must equal out's dtype (complex elements are moved, never converted).
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

// The operators whose out-variant is a plain copy,
// <op>.out(Tensor self, *, Tensor(a!) out): out = self with self's dtype
// (out must have it) and shape (out is resized); out keeps its own dim
// order. Each operator's file registers identity_copy_kernel<its value>;
// kIdentityCopyNames (indexed by IdentityCopy) holds the names the kernel
// reports in its messages.
enum class IdentityCopy { kAlias, kDetach, kLiftFresh, kHostToDevice, kDeviceToHost };

constexpr const char* kIdentityCopyNames[] = {
    "aten::alias_copy.out",   "aten::detach_copy.out",  "aten::lift_fresh_copy.out",
    "et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out",
};

void identity_copy(KernelContext& ctx, Span<EValue*> args, const char* name);

template <IdentityCopy kOp>
void identity_copy_kernel(KernelContext& ctx, Span<EValue*> args) {
  identity_copy(ctx, args, kIdentityCopyNames[int(kOp)]);
}

}  // namespace ember
