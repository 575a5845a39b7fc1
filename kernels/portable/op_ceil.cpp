// aten::ceil.out(Tensor self, *, Tensor(a!) out)
// out = ceil(self); integers unchanged, Bool refused (as in PyTorch).
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void ceil_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::ceil.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::ceil(x);
    } else {
      return x;  // integers are already integral
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::ceil.out", ceil_out_boxed);

}  // namespace ember
