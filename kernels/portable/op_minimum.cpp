// aten::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out)
// out = the smaller of self and other, broadcasting, in the promoted type;
// NaN propagates from either side. Bool is allowed (as in PyTorch).
#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_minimum(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                 ScalarType result) {
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, result, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(result), [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out,
                             [](C x, C y) { return min_propagate_nan(x, y); });
  });
}

void minimum_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::minimum.out", run_minimum);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::minimum.out", minimum_out_boxed);

}  // namespace ember
