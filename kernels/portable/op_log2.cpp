// aten::log2.out(Tensor self, *, Tensor(a!) out)
// out = log2(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void log2_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::log2.out",
                     [](auto x) { return std::log2(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::log2.out", log2_out_boxed);

}  // namespace ember
