// aten::sigmoid.out(Tensor self, *, Tensor(a!) out)
// out = 1 / (1 + e^-self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/math_util.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sigmoid_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::sigmoid.out",
                     [](auto x) { return sigmoid_value(x); }, math::sigmoid_f32);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sigmoid.out", sigmoid_out_boxed);

}  // namespace ember
