// aten::isinf.out(Tensor self, *, Tensor(a!) out)
// out = (self is +-inf), written as 0/1 in out's dtype (Bool for the
// functional op). Integer and Bool inputs give all false.
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void isinf_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_predicate_kernel(ctx, args, "aten::isinf.out", [](auto x) { return std::isinf(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::isinf.out", isinf_out_boxed);

}  // namespace ember
