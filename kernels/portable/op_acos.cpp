// aten::acos.out(Tensor self, *, Tensor(a!) out)
// out = acos(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void acos_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::acos.out",
                     [](auto x) { return std::acos(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::acos.out", acos_out_boxed);

}  // namespace ember
