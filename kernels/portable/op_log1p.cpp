// aten::log1p.out(Tensor self, *, Tensor(a!) out)
// out = ln(1 + self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void log1p_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::log1p.out",
                     [](auto x) { return std::log1p(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::log1p.out", log1p_out_boxed);

}  // namespace ember
