// aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// out = self ^ other in the promoted integral type (logical for Bool);
// floating operands are refused, as in PyTorch.
#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_bitwise_xor(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                     ScalarType result) {
  if (!is_integral_type(result, /*include_bool=*/true)) {
    a.fail(Error::InvalidArgument,
           "bitwise ops need integral or Bool operands (result type is %s)",
           scalar_type_name(result));
    return;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, result, &plan)) {
    return;
  }
  visit_integral_dtype(result, [&](auto tag) {
    using C = typename decltype(tag)::type;
    binary_elementwise<C, C>(plan, self, other, out,
                             [](C x, C y) { return static_cast<C>(x ^ y); });
  });
}

void bitwise_xor_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::bitwise_xor.Tensor_out", run_bitwise_xor);
}

void bitwise_xor_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_scalar_kernel(ctx, args, "aten::bitwise_xor.Scalar_out", run_bitwise_xor);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::bitwise_xor.Tensor_out", bitwise_xor_tensor_out_boxed);
EMBER_REGISTER_KERNEL("aten::bitwise_xor.Scalar_out", bitwise_xor_scalar_out_boxed);

}  // namespace ember
