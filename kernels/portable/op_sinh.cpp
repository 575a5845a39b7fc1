// aten::sinh.out(Tensor self, *, Tensor(a!) out)
// out = sinh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sinh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::sinh.out",
                     [](auto x) { return std::sinh(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sinh.out", sinh_out_boxed);

}  // namespace ember
