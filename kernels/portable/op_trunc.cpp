// aten::trunc.out(Tensor self, *, Tensor(a!) out)
// out = trunc(self) (round toward zero); integers unchanged, Bool refused.
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void trunc_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::trunc.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::trunc(x);
    } else {
      return x;  // integers are already integral
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::trunc.out", trunc_out_boxed);

}  // namespace ember
