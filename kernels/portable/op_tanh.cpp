// aten::tanh.out(Tensor self, *, Tensor(a!) out)
// out = tanh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void tanh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::tanh.out",
                     [](auto x) { return std::tanh(x); }, math::tanh_f32);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::tanh.out", tanh_out_boxed);

}  // namespace ember
