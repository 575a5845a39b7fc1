// aten::le.Tensor_out and aten::le.Scalar_out: out = self <= other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Le {
  template <typename T>
  bool operator()(T a, T b) const {
    return a <= b;
  }
};

void le_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Le>(ctx, args, "aten::le.Tensor_out");
}

void le_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Le>(ctx, args, "aten::le.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::le.Tensor_out", le_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::le.Scalar_out", le_scalar_out_boxed);

}  // namespace ember
