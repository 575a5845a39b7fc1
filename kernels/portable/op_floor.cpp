// aten::floor.out(Tensor self, *, Tensor(a!) out)
// out = floor(self); integers unchanged, Bool refused (as in PyTorch).
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void floor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  same_type_unary_kernel<false>(ctx, args, "aten::floor.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::floor(x);
    } else {
      return x;  // integers are already integral
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::floor.out", floor_out_boxed);

}  // namespace ember
