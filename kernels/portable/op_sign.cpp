// aten::sign.out(Tensor self, *, Tensor(a!) out)
// out = sign(self): -1, 0 or 1 in self's dtype; NaN and -0.0 give 0 (as
// PyTorch's CPU kernel); Bool is unchanged.
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sign_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<true>(ctx, args, "aten::sign.out", [](auto x) {
    return sign_value(x);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sign.out", sign_out_boxed);

}  // namespace ember
