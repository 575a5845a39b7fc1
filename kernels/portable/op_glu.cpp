// aten::glu.out(Tensor self, int dim=-1, *, Tensor(a!) out)
// Gated linear unit: self splits into halves a and b along `dim` (whose
// size must be even) and out = a * sigmoid(b), out shaped like a. self
// must be floating (Half and BFloat16 compute in float); out any floating
// type. Any dim order.
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/math_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void glu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::glu.out", 4);
  const Tensor self = a.tensor(0);
  const int64_t dim_arg = a.int_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_supported_dtype(a, self, "self") ||
      !check_supported_dtype(a, out, "out")) {
    return;
  }
  if (!is_floating_type(self.scalar_type()) || !is_floating_type(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "self and out must be floating, got %s and %s",
           scalar_type_name(self.scalar_type()), scalar_type_name(out.scalar_type()));
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "glu does not support 0-dimensional tensors");
    return;
  }
  size_t dim;
  if (!normalize_dim(a, dim_arg, self.dim(), "dim", &dim)) {
    return;
  }
  const int64_t size = self.sizes()[dim];
  if (size % 2 != 0) {
    a.fail(Error::InvalidArgument,
           "the halved dimension must be even, but dim %zu has size %lld", dim,
           static_cast<long long>(size));
    return;
  }
  Shape shape = shape_of(self);
  shape.sizes[dim] = SizesType(size / 2);
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  // Both halves read through self's own strides, the second from an
  // offset base: a zero-dim tensor of self's dtype at that address (the
  // loops read only an operand's dtype and data pointer; the plan holds
  // the strides).
  int64_t strides[2][kMaxTensorDim];
  for (size_t d = 0; d < self.dim(); ++d) {
    strides[0][d] = strides[1][d] = self.strides()[d];
  }
  ElementwisePlan plan;
  make_plan_from_strides(out, strides, 2, &plan);
  char* second = static_cast<char*>(self.mutable_data_ptr());
  if (second != nullptr) {
    second += (size / 2) * int64_t(self.strides()[dim]) * int64_t(self.element_size());
  }
  SizesType no_sizes[1] = {1};
  DimOrderType no_order[1] = {0};
  StridesType no_strides[1] = {1};
  TensorImpl b_impl(self.scalar_type(), 0, no_sizes, second, no_order, no_strides);
  visit_float_or_double_dtype(compute_type_for(self.scalar_type()), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, Tensor(&b_impl), out,
                             [](C x, C y) { return x * sigmoid_value(y); });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::glu.out", glu_out_boxed);

}  // namespace ember
