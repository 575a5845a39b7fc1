// aten::sin.out(Tensor self, *, Tensor(a!) out)
// out = sin(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sin_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::sin.out",
                     [](auto x) { return std::sin(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sin.out", sin_out_boxed);

}  // namespace ember
