// aten::log10.out(Tensor self, *, Tensor(a!) out)
// out = log10(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void log10_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::log10.out",
                     [](auto x) { return std::log10(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::log10.out", log10_out_boxed);

}  // namespace ember
