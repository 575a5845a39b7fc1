// aten::view_as_real_copy.out(Tensor self, *, Tensor(a!) out)
// A complex self as (real, imaginary) pairs: out has self's shape plus a
// last dim of 2 and the matching real dtype (ComplexHalf -> Half,
// ComplexFloat -> Float, ComplexDouble -> Double). Real inputs are refused,
// as PyTorch refuses them. Few Ember kernels take complex tensors (the
// spectral operators, abs, permute_copy, squeeze_copy): this operator is
// how a program turns them into numbers the others take.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The real dtype of a complex one; false for any other dtype.
bool real_part_type(ScalarType complex, ScalarType* real) {
  switch (complex) {
    case ScalarType::ComplexHalf: *real = ScalarType::Half; return true;
    case ScalarType::ComplexFloat: *real = ScalarType::Float; return true;
    case ScalarType::ComplexDouble: *real = ScalarType::Double; return true;
    default: return false;
  }
}

void view_as_real_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::view_as_real_copy.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) return;
  ScalarType real = ScalarType::Float;
  if (!real_part_type(self.scalar_type(), &real)) {
    a.fail(Error::InvalidArgument, "self must be a complex tensor, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  if (out.scalar_type() != real) {
    a.fail(Error::InvalidArgument, "out dtype %s is not %s, the real type of %s",
           scalar_type_name(out.scalar_type()), scalar_type_name(real),
           scalar_type_name(self.scalar_type()));
    return;
  }
  const size_t dim = self.dim();
  if (dim + 1 > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "self has %zu dims; the result would have more than %zu",
           dim, kMaxTensorDim);
    return;
  }
  SizesType sizes[kMaxTensorDim];
  // Self's strides count complex elements; a real view counts halves.
  int64_t src_strides[kMaxTensorDim];
  for (size_t d = 0; d < dim; ++d) {
    sizes[d] = self.sizes()[d];
    src_strides[d] = 2 * int64_t(self.strides()[d]);
  }
  sizes[dim] = 2;
  src_strides[dim] = 1;
  if (!resize_out(a, out, {sizes, dim + 1})) return;
  copy_strided_view(self.const_data_ptr(), real, src_strides, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::view_as_real_copy.out", view_as_real_copy_out_boxed);

}  // namespace ember
