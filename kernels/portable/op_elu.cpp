// aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1,
//               Scalar input_scale=1, *, Tensor(a!) out)
// out = self > 0 ? self * scale
//                : expm1(self * input_scale) * alpha * scale.
// Floating inputs only.
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void elu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::elu.out", 6);
  const Tensor self = a.tensor(0);
  const Scalar alpha = a.scalar(1), scale = a.scalar(2),
               input_scale = a.scalar(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  if (!is_floating_type(self.scalar_type())) {
    a.fail(Error::InvalidArgument, "elu needs a floating input, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  const double neg_coef = alpha.to_double() * scale.to_double();
  const double pos_coef = scale.to_double();
  const double in_coef = input_scale.to_double();
  float_unary_run(a, self, out, [=](auto x) {
    using C = decltype(x);
    return x > C(0) ? x * C(pos_coef) : std::expm1(x * C(in_coef)) * C(neg_coef);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::elu.out", elu_out_boxed);

}  // namespace ember
