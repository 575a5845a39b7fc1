// aten::relu.out(Tensor self, *, Tensor(a!) out)
// out = max(self, 0); NaN stays NaN. out must have self's dtype; Bool is
// refused like in PyTorch.
#include <cmath>

#include "kernels/math/elementwise.h"
#include "kernels/portable/util/arithmetic.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void relu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::relu.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  if (self.scalar_type() == ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "relu is not defined for Bool tensors");
    return;
  }
  if (out.scalar_type() != self.scalar_type()) {
    a.fail(Error::InvalidArgument, "out dtype %s differs from self dtype %s",
           scalar_type_name(out.scalar_type()),
           scalar_type_name(self.scalar_type()));
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, self.scalar_type(), &plan)) {
    return;
  }
  if (self.scalar_type() == ScalarType::Float && self.is_contiguous() &&
      out.is_contiguous() && self.numel() == out.numel()) {
    math::clamp_f32(size_t(self.numel()), self.const_data_ptr<float>(),
                   out.mutable_data_ptr<float>(), 0.0f, INFINITY);
    return;
  }
  visit_compute_dtype(compute_type_for(self.scalar_type()), [&](auto tag) {
    using C = typename decltype(tag)::type;
    // `x < 0 ? 0 : x` keeps NaN (the comparison is false).
    unary_elementwise<C, C>(plan, self, out,
                            [](C x) { return x < C(0) ? C(0) : x; });
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::relu.out", relu_out_boxed);

}  // namespace ember
