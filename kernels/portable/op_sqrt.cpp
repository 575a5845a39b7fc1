// aten::sqrt.out(Tensor self, *, Tensor(a!) out)
// out = sqrt(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sqrt_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::sqrt.out",
                     [](auto x) { return std::sqrt(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sqrt.out", sqrt_out_boxed);

}  // namespace ember
