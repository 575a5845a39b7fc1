// aten::_native_batch_norm_legit.out(Tensor input, Tensor? weight,
//     Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var,
//     bool training, float momentum, float eps, *, Tensor(d!) out,
//     Tensor(e!) save_mean, Tensor(f!) save_invstd) -> (...)
// aten::_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight,
//     Tensor? bias, bool training, float momentum, float eps, *,
//     Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd) -> (...)
// Batch norm over dim 1 of input [N, C, *].
//
// training: each channel is normalized with its own batch statistics
// (mean and biased variance over N and the spatial dims, in double);
// save_mean and save_invstd ([C]) get the mean and 1 / sqrt(var + eps).
// The .out form then updates running_mean and running_var in place:
// r = (1 - momentum) * r + momentum * s, with the unbiased variance (a
// single value per channel gives NaN, as PyTorch does). Training on an
// empty input is refused, as PyTorch refuses it.
//
// Not training (.out only): the running statistics normalize, as in
// _native_batch_norm_legit_no_training; save_mean and save_invstd are
// resized to [0]. no_stats_out without training is refused (PyTorch has no
// statistics to use). no_stats_out is what InstanceNorm without running
// statistics exports to (input viewed as [1, N * C, *]).
//
// Boxed: schema args and outs (11 or 9), then one tuple value or the outs
// again. Float, Double, Half, BFloat16; every tensor that dtype;
// contiguous. The maths is shared with the other norms (util/norm_util.h).
#include <cmath>

#include "kernels/portable/util/norm_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct BatchNormArgs {
  Tensor input;
  Optional<Tensor> weight, bias, running_mean, running_var;
  bool training;
  double momentum, eps;
  Tensor out, save_mean, save_invstd;
};

template <typename T>
const T* data_or_null(const Optional<Tensor>& t) {
  return t.has_value() ? t.value().const_data_ptr<T>() : nullptr;
}

// Training: batch statistics into stats[0, c) (mean) and stats[c, 2c)
// (biased variance), then save_mean / save_invstd, the running update and
// the normalization.
template <typename T>
void batch_norm_training(const BatchNormArgs& p, int64_t n, int64_t c, int64_t plane,
                         double* stats) {
  const T* in = p.input.const_data_ptr<T>();
  double* mean = stats;
  double* var = stats + c;
  T* save_mean = p.save_mean.mutable_data_ptr<T>();
  T* save_invstd = p.save_invstd.mutable_data_ptr<T>();
  for (int64_t ch = 0; ch < c; ++ch) {
    strided_mean_var(in + ch * plane, n, plane, c * plane, &mean[ch], &var[ch]);
    save_mean[ch] = T(mean[ch]);
    save_invstd[ch] = T(1.0 / std::sqrt(var[ch] + p.eps));
  }
  if (p.running_mean.has_value()) {
    const double count = double(n) * double(plane);
    const double m = p.momentum;
    T* rm = p.running_mean.value().mutable_data_ptr<T>();
    T* rv = p.running_var.value().mutable_data_ptr<T>();
    for (int64_t ch = 0; ch < c; ++ch) {
      rm[ch] = T((1.0 - m) * double(rm[ch]) + m * mean[ch]);
      rv[ch] = T((1.0 - m) * double(rv[ch]) + m * var[ch] * count / (count - 1.0));
    }
  }
  batch_norm_apply<T, double>(in, data_or_null<T>(p.weight), data_or_null<T>(p.bias),
                              mean, var, p.eps, n, c, plane,
                              p.out.mutable_data_ptr<T>());
}

void batch_norm_legit(KernelContext& ctx, KernelArgs& a, const BatchNormArgs& p) {
  const Tensor input = p.input;
  if (!a.ok() || !require_floating(a, input, "input") ||
      !check_same_dtype(a, input, p.out) || !check_same_dtype(a, input, p.save_mean) ||
      !check_same_dtype(a, input, p.save_invstd) ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, p.out, "out") ||
      !check_contiguous(a, p.save_mean, "save_mean") ||
      !check_contiguous(a, p.save_invstd, "save_invstd")) {
    return;
  }
  if (input.dim() < 2) {
    a.fail(Error::InvalidArgument, "input must have at least 2 dims, has %zu",
           input.dim());
    return;
  }
  const ScalarType type = input.scalar_type();
  const int64_t n = input.sizes()[0], c = input.sizes()[1];
  const int64_t plane = n * c == 0 ? 0 : input.numel() / (n * c);
  if (!check_norm_param(a, p.weight, type, c, "weight") ||
      !check_norm_param(a, p.bias, type, c, "bias") ||
      !check_norm_param(a, p.running_mean, type, c, "running_mean") ||
      !check_norm_param(a, p.running_var, type, c, "running_var")) {
    return;
  }
  if (!p.training && !p.running_mean.has_value()) {
    a.fail(Error::InvalidArgument, "training = false needs running statistics");
    return;
  }
  if (p.training && input.numel() == 0) {
    a.fail(Error::InvalidArgument, "training needs a nonempty input");
    return;
  }
  const SizesType stat_size[1] = {p.training ? SizesType(c) : 0};
  if (!resize_out(a, p.out, shape_of(input).span()) ||
      !resize_out(a, p.save_mean, {stat_size, 1}) ||
      !resize_out(a, p.save_invstd, {stat_size, 1})) {
    return;
  }
  double* stats = nullptr;
  if (p.training) {
    const size_t bytes = 2 * size_t(c) * sizeof(double);
    stats = static_cast<double*>(ctx.allocate_temp(bytes));
    if (stats == nullptr) {
      a.fail(Error::MemoryAllocationFailed, "needs %zu bytes of temp memory", bytes);
      return;
    }
  }
  visit_float_double_half_bfloat16_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (p.training) {
      batch_norm_training<T>(p, n, c, plane, stats);
      return;
    }
    batch_norm_apply<T, T>(input.const_data_ptr<T>(), data_or_null<T>(p.weight),
                           data_or_null<T>(p.bias), data_or_null<T>(p.running_mean),
                           data_or_null<T>(p.running_var), p.eps, n, c, plane,
                           p.out.mutable_data_ptr<T>());
  });
}

void batch_norm_legit_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_native_batch_norm_legit.out",
               tuple_op_arg_count(args.size(), 11, 3));
  BatchNormArgs p{a.tensor(0), a.optional_tensor(1), a.optional_tensor(2),
                  a.tensor(3),  a.tensor(4),          a.bool_value(5),
                  a.double_value(6), a.double_value(7), a.tensor(8),
                  a.tensor(9),  a.tensor(10)};
  batch_norm_legit(ctx, a, p);
}

void batch_norm_legit_no_stats_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_native_batch_norm_legit.no_stats_out",
               tuple_op_arg_count(args.size(), 9, 3));
  BatchNormArgs p{a.tensor(0), a.optional_tensor(1), a.optional_tensor(2),
                  {},          {},                   a.bool_value(3),
                  a.double_value(4), a.double_value(5), a.tensor(6),
                  a.tensor(7), a.tensor(8)};
  batch_norm_legit(ctx, a, p);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit.out", batch_norm_legit_out_boxed);
EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit.no_stats_out",
                      batch_norm_legit_no_stats_out_boxed);

}  // namespace ember
