// aten::var.out(Tensor self, int[1]? dim, bool unbiased=True,
//               bool keepdim=False, *, Tensor(a!) out)
// aten::var.correction_out(Tensor self, int[1]? dim=None, *,
//     Scalar? correction=None, bool keepdim=False, Tensor(a!) out)
// Variance over `dim` (None or [] = all dims): sum((x - mean)^2) /
// max(0, N - correction), two passes in double (util/variance.h).
// correction defaults to 1 (unbiased); N - correction <= 0 gives inf or NaN
// as in PyTorch. self and out floating and contiguous.
//
// Prepared kernels: Prepared calls skip the dtype and contiguity checks;
// dim, keepdim and correction are values, dim and keepdim checked at every
// call, and out's shape only compared (reduce_prologue).
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/variance.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void var(KernelArgs& a, KernelContext& ctx, Tensor self,
         Optional<Span<int64_t>> dims, double correction, bool keepdim,
         Tensor out) {
  if (!a.ok() || (!a.prepared() && (!require_floating(a, self, "self") ||
                                     !require_floating(a, out, "out")))) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan) || !checks_done(a)) {
    return;
  }
  double* result = static_cast<double*>(
      reduce_temp(a, ctx, plan.out_numel, sizeof(double)));
  if (result == nullptr) {
    return;
  }
  if (!variance_and_mean(a, ctx, plan, self, correction, result, nullptr)) {
    return;
  }
  (void)convert_elements(result, ScalarType::Double, 1, out.mutable_data_ptr(),
                         out.scalar_type(), 1, plan.out_numel);
}

void var_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::var.out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool unbiased = a.bool_value(2);
  const bool keepdim = a.bool_value(3);
  const Tensor out = a.tensor(4);
  var(a, ctx, self, dims, unbiased ? 1.0 : 0.0, keepdim, out);
}

void var_correction_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::var.correction_out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const Optional<Scalar> correction = a.optional_scalar(2);
  const bool keepdim = a.bool_value(3);
  const Tensor out = a.tensor(4);
  var(a, ctx, self, dims,
      correction.has_value() ? correction.value().to_double() : 1.0, keepdim,
      out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::var.out", var_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::var.correction_out", var_correction_out_boxed);

}  // namespace ember
