// aten::cosh.out(Tensor self, *, Tensor(a!) out)
// out = cosh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void cosh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::cosh.out",
                     [](auto x) { return std::cosh(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::cosh.out", cosh_out_boxed);

}  // namespace ember
