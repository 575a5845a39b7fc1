// aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// Python's modulus: the result takes the divisor's sign. Integer division
// by zero is an error; floating x % 0 is NaN. Bool is refused.
#include <cmath>

#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_remainder(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                   ScalarType result) {
  run_division_like(
      a, self, other, out, result, [](auto x, auto y) { return int_remainder(x, y); },
      [](auto x, auto y) { return float_remainder(x, y); });
}

void remainder_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::remainder.Tensor_out", run_remainder);
}

void remainder_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_scalar_kernel(ctx, args, "aten::remainder.Scalar_out", run_remainder);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::remainder.Tensor_out", remainder_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::remainder.Scalar_out", remainder_scalar_out_boxed);

}  // namespace ember
