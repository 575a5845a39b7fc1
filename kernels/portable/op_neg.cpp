// aten::neg.out(Tensor self, *, Tensor(a!) out)
// out = -self; integers wrap (uint8 included), Bool refused (as in PyTorch).
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void neg_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::neg.out", [](auto x) {
    return neg_value(x);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::neg.out", neg_out_boxed);

}  // namespace ember
