// aten::tan.out(Tensor self, *, Tensor(a!) out)
// out = tan(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void tan_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::tan.out",
                     [](auto x) { return std::tan(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::tan.out", tan_out_boxed);

}  // namespace ember
