// aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *,
//                      Tensor(a!) out)
// out = self > 0 ? self : self * negative_slope. Floating inputs only.
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void leaky_relu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::leaky_relu.out", 4);
  const Tensor self = a.tensor(0);
  const Scalar slope = a.scalar(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  if (!is_floating_type(self.scalar_type())) {
    a.fail(Error::InvalidArgument, "leaky_relu needs a floating input, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  const double s = slope.to_double();
  float_unary_run(a, self, out, [s](auto x) {
    using C = decltype(x);
    return x > C(0) ? x : x * C(s);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::leaky_relu.out", leaky_relu_out_boxed);

}  // namespace ember
