// aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *,
//                    Tensor(a!) out)
// out = clamp(self, min_val, max_val) in self's dtype (NaN stays NaN;
// min_val > max_val gives max_val). Integer inputs take the bounds
// truncated toward zero, as PyTorch converts them; Bool is refused.
#include "kernels/math/elementwise.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void hardtanh_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::hardtanh.out", 5);
  const Tensor self = a.tensor(0);
  const Scalar min_val = a.scalar(1), max_val = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (type == ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "hardtanh is not defined for Bool tensors");
    return;
  }
  ElementwisePlan plan;
  if (!unary_out_prologue(a, self, out, type, &plan)) {
    return;
  }
  if (type == ScalarType::Float && self.is_contiguous() && out.is_contiguous() &&
      self.numel() == out.numel()) {
    // Float, dense: the kernel maths library's clamp (same NaN rule).
    float lo = 0.0f, hi = 0.0f;
    if (scalar_cast_to(a, min_val, "min_val", &lo) &&
        scalar_cast_to(a, max_val, "max_val", &hi)) {
      math::clamp_f32(size_t(self.numel()), self.const_data_ptr<float>(),
                     out.mutable_data_ptr<float>(), lo, hi);
    }
    return;
  }
  visit_real_dtype(compute_type_for(type), [&](auto tag) {
    using C = typename decltype(tag)::type;
    C lo = C(0), hi = C(0);
    if (!scalar_cast_to(a, min_val, "min_val", &lo) ||
        !scalar_cast_to(a, max_val, "max_val", &hi)) {
      return;
    }
    unary_elementwise<C, C>(plan, self, out, [lo, hi](C x) {
      return min_propagate_nan(max_propagate_nan(x, lo), hi);
    });
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::hardtanh.out", hardtanh_out_boxed);

}  // namespace ember
