// aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out)
// out = atan2(self, other) (the angle of the point (other, self)),
// broadcasting. The operands promote as in PyTorch and integral or Bool
// results compute in Float, like true division; Half and BFloat16 compute
// in float and round on store. out must be a floating type.
#include <cmath>

#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_atan2(KernelArgs& a, Tensor self, Tensor other, Tensor out,
               ScalarType promoted) {
  const ScalarType result = float_result_type(promoted);
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, result, &plan)) {
    return;
  }
  visit_float_or_double_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out,
                             [](C y, C x) { return std::atan2(y, x); });
  });
}

void atan2_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::atan2.out", run_atan2);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::atan2.out", atan2_out_boxed);

}  // namespace ember
