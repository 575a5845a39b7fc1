// aten::asin.out(Tensor self, *, Tensor(a!) out)
// out = asin(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void asin_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::asin.out",
                     [](auto x) { return std::asin(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::asin.out", asin_out_boxed);

}  // namespace ember
