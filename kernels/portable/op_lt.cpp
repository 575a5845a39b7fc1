// aten::lt.Tensor_out and aten::lt.Scalar_out: out = self < other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Lt {
  template <typename T>
  bool operator()(T a, T b) const {
    return a < b;
  }
};

void lt_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Lt>(ctx, args, "aten::lt.Tensor_out");
}

void lt_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Lt>(ctx, args, "aten::lt.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::lt.Tensor_out", lt_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::lt.Scalar_out", lt_scalar_out_boxed);

}  // namespace ember
