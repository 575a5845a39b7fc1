// aten::round.out(Tensor self, *, Tensor(a!) out)
// out = self rounded half to even (std::nearbyint in the default rounding
// mode, like PyTorch); integers unchanged, Bool refused.
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void round_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::round.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::nearbyint(x);
    } else {
      return x;  // integers are already integral
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::round.out", round_out_boxed);

}  // namespace ember
