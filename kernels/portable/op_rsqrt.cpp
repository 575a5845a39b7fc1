// aten::rsqrt.out(Tensor self, *, Tensor(a!) out)
// out = 1 / sqrt(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void rsqrt_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::rsqrt.out",
                     [](auto x) { return decltype(x)(1) / std::sqrt(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::rsqrt.out", rsqrt_out_boxed);

}  // namespace ember
