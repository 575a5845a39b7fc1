// aten::view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out)
// out = self reshaped to `size` (one entry may be -1, inferred). Both
// tensors must be contiguous: the reshape is a flat copy.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks;
// the size list is read and checked in every mode (an Int may change between
// executions), and out's shape only compared (out_shape_prologue).
#include <cstring>

#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void view_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::view_copy.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> size = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && (!check_same_dtype(a, self, out) ||
                                     !check_contiguous(a, self, "self") ||
                                     !check_contiguous(a, out, "out")))) {
    return;
  }
  if (size.size() > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "size has %zu dims; at most %zu",
           size.size(), kMaxTensorDim);
    return;
  }
  Shape shape;
  shape.dim = size.size();
  int64_t known = 1;
  size_t infer = kMaxTensorDim;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == -1 && infer == kMaxTensorDim) {
      infer = i;
      shape.sizes[i] = 1;
      continue;
    }
    if (size[i] < 0 || size[i] > INT32_MAX) {
      a.fail(Error::InvalidArgument, "size[%zu] = %lld is invalid", i,
             static_cast<long long>(size[i]));
      return;
    }
    shape.sizes[i] = SizesType(size[i]);
    // Up to 16 sizes below 2^31 overflow int64; any product beyond self's
    // numel (at most 2^48) is wrong anyway, so saturate.
    if (__builtin_mul_overflow(known, size[i], &known)) {
      known = INT64_MAX;
    }
  }
  if (infer != kMaxTensorDim) {
    if (known == 0 || self.numel() % known != 0) {
      a.fail(Error::InvalidArgument,
             "cannot infer size[%zu]: %lld elements do not divide into %lld",
             infer, static_cast<long long>(self.numel()),
             static_cast<long long>(known));
      return;
    }
    shape.sizes[infer] = SizesType(self.numel() / known);
  }
  if (shape.numel() != self.numel()) {
    a.fail(Error::InvalidArgument,
           "shape with %lld elements is invalid for self with %lld",
           static_cast<long long>(shape.numel()),
           static_cast<long long>(self.numel()));
    return;
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  if (self.nbytes() > 0 && out.const_data_ptr() != self.const_data_ptr()) {
    std::memmove(out.mutable_data_ptr(), self.const_data_ptr(), self.nbytes());
  }
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::view_copy.out", view_copy_out_boxed);

}  // namespace ember
