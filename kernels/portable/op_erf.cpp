// aten::erf.out(Tensor self, *, Tensor(a!) out)
// out = erf(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void erf_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::erf.out",
                     [](auto x) { return std::erf(x); }, math::erf_f32);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::erf.out", erf_out_boxed);

}  // namespace ember
