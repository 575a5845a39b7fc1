// aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out)
// Python's //: the quotient rounded toward -inf, in the promoted type.
// Integer division by zero is an error; floating x // 0 is +-inf or NaN.
// Bool is refused.
#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_floor_divide(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                      ScalarType result) {
  run_division_like(
      a, self, other, out, result, [](auto x, auto y) { return int_div_floor(x, y); },
      [](auto x, auto y) { return float_div_floor(x, y); });
}

void floor_divide_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::floor_divide.out", run_floor_divide);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::floor_divide.out", floor_divide_out_boxed);

}  // namespace ember
