// aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out)
// out = log(z / (1 - z)) with z = self clamped to [eps, 1 - eps] when eps
// is given (NaN stays NaN); integer and Bool inputs give Float.
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void logit_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::logit.out", 4);
  const Tensor self = a.tensor(0);
  // float? eps: None, or a Double (Int when the exporter wrote 0).
  const Optional<Scalar> eps_arg = a.optional_scalar(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  const double eps = eps_arg.has_value() ? eps_arg.value().to_double() : -1.0;
  if (eps < 0.0) {
    float_unary_run(a, self, out, [](auto x) {
      using C = decltype(x);
      return std::log(x / (C(1) - x));
    });
    return;
  }
  const double lo_d = eps, hi_d = 1.0 - eps;
  float_unary_run(a, self, out, [lo_d, hi_d](auto x) {
    using C = decltype(x);
    const C lo = C(lo_d), hi = C(hi_d);
    const C z = x < lo ? lo : (x > hi ? hi : x);
    return std::log(z / (C(1) - z));
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logit.out", logit_out_boxed);

}  // namespace ember
