// aten::cos.out(Tensor self, *, Tensor(a!) out)
// out = cos(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void cos_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::cos.out",
                     [](auto x) { return std::cos(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::cos.out", cos_out_boxed);

}  // namespace ember
