// aten::_native_batch_norm_legit_no_training.out(Tensor input,
//     Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var,
//     float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1,
//     Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))
// Inference batch norm over dim 1 of input [N, C, *]:
// out0 = (x - mean[c]) / sqrt(var[c] + eps) * weight[c] + bias[c], as one
// scale and shift per channel. out1 and out2 are resized to [0] (PyTorch
// returns empty statistics). Boxed: 10 schema args, then one tuple value
// (11) or the outs (13). Floating dtypes; contiguous.
//
// A prepared kernel: every check depends only on dtypes and shapes (eps
// and momentum are not checked), so Prepared calls skip them all, and the
// resizes, and only compute.
#include "kernels/portable/util/norm_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The checks and sizing Prepared calls skip.
bool check_batch_norm_no_training(KernelArgs& a, Tensor input, Optional<Tensor> weight,
                                  Optional<Tensor> bias, Tensor running_mean,
                                  Tensor running_var, Tensor out, Tensor out1, Tensor out2) {
  if (!require_floating(a, input, "input") || !check_same_dtype(a, input, out) ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, out, "out0")) {
    return false;
  }
  if (input.dim() < 2) {
    return a.fail(Error::InvalidArgument, "input must have at least 2 dims, has %zu",
                  input.dim());
  }
  const int64_t c = input.sizes()[1];
  if (!check_norm_param(a, weight, input.scalar_type(), c, "weight") ||
      !check_norm_param(a, bias, input.scalar_type(), c, "bias") ||
      !check_norm_param(a, running_mean, input.scalar_type(), c, "running_mean") ||
      !check_norm_param(a, running_var, input.scalar_type(), c, "running_var")) {
    return false;
  }
  const SizesType empty[1] = {0};
  return resize_out(a, out, shape_of(input).span()) && resize_out(a, out1, {empty, 1}) &&
         resize_out(a, out2, {empty, 1});
}

void batch_norm_no_training_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_native_batch_norm_legit_no_training.out",
               tuple_op_arg_count(args.size(), 10, 3));
  const Tensor input = a.tensor(0);
  const Optional<Tensor> weight = a.optional_tensor(1), bias = a.optional_tensor(2);
  const Tensor running_mean = a.tensor(3), running_var = a.tensor(4);
  (void)a.double_value(5);
  const double eps = a.double_value(6);
  const Tensor out = a.tensor(7), out1 = a.tensor(8), out2 = a.tensor(9);
  if (!a.ok() ||
      (!a.prepared() && !check_batch_norm_no_training(a, input, weight, bias, running_mean,
                                                      running_var, out, out1, out2)) ||
      !checks_done(a)) {
    return;
  }
  const int64_t n = input.sizes()[0], c = input.sizes()[1];
  const int64_t plane = n * c == 0 ? 0 : input.numel() / (n * c);
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    batch_norm_apply<T, T>(
        input.const_data_ptr<T>(),
        weight.has_value() ? weight.value().const_data_ptr<T>() : nullptr,
        bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
        running_mean.const_data_ptr<T>(), running_var.const_data_ptr<T>(), eps, n, c,
        plane, out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::_native_batch_norm_legit_no_training.out",
                               batch_norm_no_training_out_boxed);

}  // namespace ember
