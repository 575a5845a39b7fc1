// aten::abs.out(Tensor self, *, Tensor(a!) out)
// out = |self|; abs(-0.0) is +0.0, the most negative integer wraps to
// itself, Bool refused (as in PyTorch).
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void abs_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::abs.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::fabs(x);
    } else if constexpr (std::is_unsigned<C>::value) {
      return x;
    } else {
      return x < C(0) ? neg_value(x) : x;  // INT_MIN wraps to itself
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::abs.out", abs_out_boxed);

}  // namespace ember
