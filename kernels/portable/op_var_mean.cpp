// aten::var_mean.correction_out(Tensor self, int[1]? dim=None, *,
//     Scalar? correction=None, bool keepdim=False, Tensor(a!) out0,
//     Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))
// out0 = the variance of self over `dim` (None or [] = all dims), as
// var.correction_out computes it, and out1 = the mean, both from the same
// two passes in double (util/variance.h). correction defaults to 1. self
// floating; out0 and out1 of self's dtype (as PyTorch requires); all three
// contiguous. Boxed args: [self, dim, correction, keepdim, out0, out1] then
// the return, one tuple value (7 args) or the two tensors (8).
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks;
// dim, keepdim and correction are values, dim and keepdim checked at every
// call, and both outs' shapes only compared (reduce_prologue,
// match_out_shape).
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/variance.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

bool check_dtype_of_self(KernelArgs& a, Tensor self, Tensor out, const char* what) {
  if (out.scalar_type() == self.scalar_type()) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "%s dtype %s differs from self dtype %s", what,
                scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
}

void var_mean_correction_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 7 ? 7 : 8;
  KernelArgs a(ctx, args, "aten::var_mean.correction_out", count);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const Optional<Scalar> correction_arg = a.optional_scalar(2);
  const bool keepdim = a.bool_value(3);
  const Tensor var_out = a.tensor(4), mean_out = a.tensor(5);
  if (!a.ok() || (!a.prepared() && (!require_floating(a, self, "self") ||
                                     !check_dtype_of_self(a, self, var_out, "out0") ||
                                     !check_dtype_of_self(a, self, mean_out, "out1") ||
                                     !check_contiguous(a, mean_out, "out1")))) {
    return;
  }
  const double correction =
      correction_arg.has_value() ? correction_arg.value().to_double() : 1.0;
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, var_out, false, &plan) ||
      !match_out_shape(a, mean_out, plan.out_shape.span()) || !checks_done(a)) {
    return;
  }
  double* var = static_cast<double*>(reduce_temp(a, ctx, plan.out_numel, sizeof(double)));
  if (var == nullptr) {
    return;
  }
  double* mean = static_cast<double*>(reduce_temp(a, ctx, plan.out_numel, sizeof(double)));
  if (mean == nullptr || !variance_and_mean(a, ctx, plan, self, correction, var, mean)) {
    return;
  }
  (void)convert_elements(var, ScalarType::Double, 1, var_out.mutable_data_ptr(),
                         var_out.scalar_type(), 1, plan.out_numel);
  (void)convert_elements(mean, ScalarType::Double, 1, mean_out.mutable_data_ptr(),
                         mean_out.scalar_type(), 1, plan.out_numel);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::var_mean.correction_out", var_mean_correction_out_boxed);

}  // namespace ember
