// aten::_native_batch_norm_legit_no_training.out(Tensor input,
//     Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var,
//     float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1,
//     Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))
// Inference batch norm over dim 1 of input [N, C, *]:
// out0 = (x - mean[c]) / sqrt(var[c] + eps) * weight[c] + bias[c], as one
// scale and shift per channel. out1 and out2 are resized to [0] (PyTorch
// returns empty statistics). Boxed: 10 schema args, then one tuple value
// (11) or the outs (13). Floating dtypes; contiguous.
#include <type_traits>

#include "kernels/optimized/elementwise.h"
#include "kernels/portable/util/norm_util.h"
#include "runtime/platform/threadpool.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void batch_norm(const T* in, const T* w, const T* b, const T* mean,
                const T* var, double eps, int64_t n, int64_t c, int64_t plane,
                T* out) {
  using C = OpMath<T>;
  // One task per (image, channel) plane: scale and shift from the
  // channel's statistics in double, then the affine map (Float: the
  // optimized library's vector loop).
  auto plane_task = [&](size_t task) {
    const int64_t i = int64_t(task) / c, ch = int64_t(task) % c;
    double scale_d, shift_d;
    batch_norm_factors(w, b, mean, var, eps, ch, &scale_d, &shift_d);
    const C scale = C(scale_d), shift = C(shift_d);
    const T* x = in + (i * c + ch) * plane;
    T* y = out + (i * c + ch) * plane;
    if constexpr (std::is_same_v<T, float>) {
      opt::scale_shift_f32(size_t(plane), x, y, scale, shift);
    } else {
      for (int64_t k = 0; k < plane; ++k) {
        y[k] = T(C(x[k]) * scale + shift);
      }
    }
  };
  const size_t planes = size_t(n * c);
  if (n * c * plane < (int64_t(1) << 15)) {
    for (size_t t = 0; t < planes; ++t) plane_task(t);
    return;
  }
  parallel_for(planes, [&plane_task](size_t t) { plane_task(t); });
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
  if (!a.ok() || !require_floating(a, input, "input") ||
      !check_same_dtype(a, input, out) || !check_contiguous(a, input, "input") ||
      !check_contiguous(a, out, "out0")) {
    return;
  }
  if (input.dim() < 2) {
    a.fail(Error::InvalidArgument, "input must have at least 2 dims, has %zu",
           input.dim());
    return;
  }
  const int64_t n = input.sizes()[0], c = input.sizes()[1];
  const int64_t plane = n * c == 0 ? 0 : input.numel() / (n * c);
  if (!check_norm_param(a, weight, input.scalar_type(), c, "weight") ||
      !check_norm_param(a, bias, input.scalar_type(), c, "bias") ||
      !check_norm_param(a, running_mean, input.scalar_type(), c, "running_mean") ||
      !check_norm_param(a, running_var, input.scalar_type(), c, "running_var")) {
    return;
  }
  const SizesType empty[1] = {0};
  if (!resize_out(a, out, shape_of(input).span()) ||
      !resize_out(a, out1, {empty, 1}) || !resize_out(a, out2, {empty, 1})) {
    return;
  }
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    batch_norm<T>(input.const_data_ptr<T>(),
                  weight.has_value() ? weight.value().const_data_ptr<T>() : nullptr,
                  bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
                  running_mean.const_data_ptr<T>(), running_var.const_data_ptr<T>(),
                  eps, n, c, plane, out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit_no_training.out",
                      batch_norm_no_training_out_boxed);

}  // namespace ember
