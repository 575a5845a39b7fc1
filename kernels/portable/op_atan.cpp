// aten::atan.out(Tensor self, *, Tensor(a!) out)
// out = atan(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void atan_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::atan.out",
                     [](auto x) { return std::atan(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::atan.out", atan_out_boxed);

}  // namespace ember
