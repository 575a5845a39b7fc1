// Shape helpers shared by the portable kernels: dim normalization,
// broadcasting, output resizing with a message that names the operator,
// and contiguity checks.
//
// Every function that can fail records the reason through `args`
// (KernelArgs::fail: "<op>: <reason>") and fails the kernel context, then
// returns false; the kernel returns right away.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// A shape on the stack, built by kernels before they resize `out`.
struct Shape {
  SizesType sizes[kMaxTensorDim];
  size_t dim = 0;

  Span<const SizesType> span() const { return {sizes, dim}; }
  // The product of the sizes, INT64_MAX when it overflows int64.
  int64_t numel() const;
};

// Maps `dim` in [-ndim, ndim) to [0, ndim); a zero-dim tensor accepts -1
// and 0 like PyTorch. `what` names the argument in the message.
bool normalize_dim(KernelArgs& args, int64_t dim, size_t ndim, const char* what,
                   size_t* out);

// Copies a tensor's shape.
Shape shape_of(Tensor t);

// Broadcasts `count` shapes following PyTorch's rules into `out`.
bool broadcast_shapes(KernelArgs& args, const Tensor* tensors, size_t count,
                      Shape* out);

// True if `in` broadcasts to `to` (used by ops whose output shape is given).
bool broadcasts_to(Span<const SizesType> in, Span<const SizesType> to);

// Resizes `out` (resize_tensor), turning a failure into an operator error.
bool resize_out(KernelArgs& args, Tensor out, Span<const SizesType> sizes);

// The end of the prepare phase of a prepared kernel whose out shape
// follows from Int arguments (dims, sizes, slice bounds). An Int may change
// between executions (a method input, a value read from a tensor), so every
// mode computes `sizes` from the current values, with their checks, before
// calling this. Run and Prepare resize out to `sizes` (resize_out), and
// Prepare then stops. Prepared (out is static and was sized at load) only
// compares, and resizes, failing as without prepare, when the values now
// give another shape. Returns false when the kernel must return: a failure
// or the end of a Prepare call. Same as match_out_shape() && checks_done().
bool out_shape_prologue(KernelArgs& args, Tensor out, Span<const SizesType> sizes);

// out_shape_prologue() without the stop, for a kernel with more than one
// output or more checks to come: Run and Prepare resize out to `sizes`;
// Prepared compares, and resizes only when the shape differs.
bool match_out_shape(KernelArgs& args, Tensor out, Span<const SizesType> sizes);

// The end of a prepared kernel's checks: in Prepare mode calls
// prepared_stop() and returns false (the kernel returns without reading or
// writing tensor data); otherwise returns true (the kernel computes).
inline bool checks_done(KernelArgs& args) {
  return !args.preparing() || args.prepared_stop();
}

// Fails unless `t` has exactly the shape `want` (no broadcasting), naming
// `what` and both shapes.
bool check_shape(KernelArgs& args, Tensor t, const Shape& want, const char* what);

// Fails unless `t` has the identity dim order. `what` names the argument.
bool check_contiguous(KernelArgs& args, Tensor t, const char* what);

// Fails unless `t` has a storage type from dtype_util.h.
bool check_supported_dtype(KernelArgs& args, Tensor t, const char* what);

// Fails unless out has self's dtype (the view-copy kernels do not convert).
bool check_same_dtype(KernelArgs& args, Tensor self, Tensor out);

// check_same_dtype that also takes the complex dtypes, for the kernels that
// only move elements through copy_strided_view (which moves complex
// elements as bytes): permute_copy and squeeze_copy, which complex results
// of the spectral operators pass through.
bool check_same_movable_dtype(KernelArgs& args, Tensor self, Tensor out);

// Fails unless every element of `sizes` fits SizesType and is >= 0 (for
// int lists given as shapes).
bool to_shape(KernelArgs& args, Span<const int64_t> sizes, const char* what,
              Shape* out);

}  // namespace ember
