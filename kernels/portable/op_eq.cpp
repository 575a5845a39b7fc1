// aten::eq.Tensor_out and aten::eq.Scalar_out: out = self == other
// (see util/comparison.h for the shared rules).
#include "kernels/portable/util/comparison.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Eq {
  template <typename T>
  bool operator()(T a, T b) const {
    return a == b;
  }
};

void eq_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_tensor_kernel<Eq>(ctx, args, "aten::eq.Tensor_out");
}

void eq_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  comparison_scalar_kernel<Eq>(ctx, args, "aten::eq.Scalar_out");
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::eq.Tensor_out", eq_tensor_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::eq.Scalar_out", eq_scalar_out_boxed);

}  // namespace ember
