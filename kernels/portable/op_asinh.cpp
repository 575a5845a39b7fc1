// aten::asinh.out(Tensor self, *, Tensor(a!) out)
// out = asinh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void asinh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::asinh.out",
                     [](auto x) { return std::asinh(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::asinh.out", asinh_out_boxed);

}  // namespace ember
