// aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
// aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
//                      Tensor(a!) out)
// out = self - alpha * other. Bool operands are refused, as in PyTorch.
#include "kernels/portable/util/add_sub.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sub_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  add_sub_tensor_kernel<true>(ctx, args, "aten::sub.out");
}

void sub_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  add_sub_scalar_kernel<true>(ctx, args, "aten::sub.Scalar_out");
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::sub.out", sub_out_boxed);
EMBER_REGISTER_KERNEL("aten::sub.Scalar_out", sub_scalar_out_boxed);

}  // namespace ember
