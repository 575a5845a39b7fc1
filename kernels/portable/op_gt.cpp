// aten::gt.Tensor_out and aten::gt.Scalar_out: out = self > other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Gt {
  template <typename T>
  bool operator()(T a, T b) const {
    return a > b;
  }
};

void gt_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Gt>(ctx, args, "aten::gt.Tensor_out");
}

void gt_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Gt>(ctx, args, "aten::gt.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::gt.Tensor_out", gt_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::gt.Scalar_out", gt_scalar_out_boxed);

}  // namespace ember
