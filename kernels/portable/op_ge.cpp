// aten::ge.Tensor_out and aten::ge.Scalar_out: out = self >= other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Ge {
  template <typename T>
  bool operator()(T a, T b) const {
    return a >= b;
  }
};

void ge_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Ge>(ctx, args, "aten::ge.Tensor_out");
}

void ge_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Ge>(ctx, args, "aten::ge.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::ge.Tensor_out", ge_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::ge.Scalar_out", ge_scalar_out_boxed);

}  // namespace ember
