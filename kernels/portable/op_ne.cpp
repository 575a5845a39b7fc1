// aten::ne.Tensor_out and aten::ne.Scalar_out: out = self != other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Ne {
  template <typename T>
  bool operator()(T a, T b) const {
    return a != b;
  }
};

void ne_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Ne>(ctx, args, "aten::ne.Tensor_out");
}

void ne_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Ne>(ctx, args, "aten::ne.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::ne.Tensor_out", ne_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::ne.Scalar_out", ne_scalar_out_boxed);

}  // namespace ember
