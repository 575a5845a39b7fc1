// aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// C's fmod: the result takes the dividend's sign. Integer division by zero
// is an error; floating x fmod 0 is NaN. Bool is refused.
#include <cmath>

#include "kernels/portable/util/binary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_fmod(KernelArgs& a, Tensor self, Tensor other, Tensor out,
              ScalarType result) {
  run_division_like(
      a, self, other, out, result, [](auto x, auto y) { return int_fmod(x, y); },
      [](auto x, auto y) { return std::fmod(x, y); });
}

void fmod_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::fmod.Tensor_out", run_fmod);
}

void fmod_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_scalar_kernel(ctx, args, "aten::fmod.Scalar_out", run_fmod);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::fmod.Tensor_out", fmod_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::fmod.Scalar_out", fmod_scalar_out_boxed);

}  // namespace ember
