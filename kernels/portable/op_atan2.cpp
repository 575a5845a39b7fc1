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
  run_floating_binary(a, self, other, out, float_result_type(promoted),
                      [](auto y, auto x) { return std::atan2(y, x); });
}

void atan2_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::atan2.out", run_atan2);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::atan2.out", atan2_out_boxed);

}  // namespace ember
