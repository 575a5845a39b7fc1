// aten::bitwise_not.out(Tensor self, *, Tensor(a!) out)
// out = ~self for integers, !self for Bool; floating inputs are refused
// (as in PyTorch).
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void bitwise_not_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::bitwise_not.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (!is_integral_type(type, /*include_bool=*/true)) {
    a.fail(Error::InvalidArgument,
           "bitwise_not needs an integral or Bool input, got %s",
           scalar_type_name(type));
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, type, &plan)) {
    return;
  }
  visit_integral_dtype(type, [&](auto tag) {
    using C = typename decltype(tag)::type;
    unary_elementwise<C, C>(plan, self, out, [](C x) {
      if constexpr (std::is_same<C, bool>::value) {
        return !x;
      } else {
        return static_cast<C>(~x);
      }
    });
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::bitwise_not.out", bitwise_not_out_boxed);

}  // namespace ember
