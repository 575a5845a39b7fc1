// aten::exp.out(Tensor self, *, Tensor(a!) out)
// out = e^self, elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void exp_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::exp.out",
                     [](auto x) { return std::exp(x); }, math::exp_f32);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::exp.out", exp_out_boxed);

}  // namespace ember
