// aten::atanh.out(Tensor self, *, Tensor(a!) out)
// out = atanh(self), elementwise; integer and Bool inputs give Float (see
// util/unary_math.h).
#include <cmath>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void atanh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  float_unary_kernel(ctx, args, "aten::atanh.out",
                     [](auto x) { return std::atanh(x); });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::atanh.out", atanh_out_boxed);

}  // namespace ember
