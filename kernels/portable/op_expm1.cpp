// aten::expm1.out(Tensor self, *, Tensor(a!) out)
// out = e^self - 1, elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void expm1_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::expm1.out",
                     [](auto x) { return std::expm1(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::expm1.out", expm1_out_boxed);

}  // namespace ember
