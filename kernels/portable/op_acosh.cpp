// aten::acosh.out(Tensor self, *, Tensor(a!) out)
// out = acosh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void acosh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::acosh.out",
                     [](auto x) { return std::acosh(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::acosh.out", acosh_out_boxed);

}  // namespace ember
