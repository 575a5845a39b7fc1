// aten::reciprocal.out(Tensor self, *, Tensor(a!) out)
// out = 1 / self, elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void reciprocal_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::reciprocal.out",
                     [](auto x) { return decltype(x)(1) / x; });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::reciprocal.out", reciprocal_out_boxed);

}  // namespace ember
