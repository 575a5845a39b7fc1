// aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape,
//     Tensor? weight, Tensor? bias, float eps, *, Tensor(a!) out0,
//     Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))
// Normalizes over the trailing dims named by normalized_shape:
// out0 = (x - mean) * rstd * weight + bias; out1 = mean and out2 = rstd,
// shaped like input with the normalized dims set to 1. Statistics in
// double. Boxed: 8 schema args, then one tuple value (9) or the outs (11).
// Floating dtypes, all tensors share input's dtype; contiguous.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks
// and out0's resize. normalized_shape is a value, read and checked against
// input at every call, with the element count of weight and bias it gives;
// the statistics' shape follows from it, so out1 and out2 are only compared
// (match_out_shape).
#include <type_traits>

#include "kernels/math/norm.h"
#include "kernels/portable/util/norm_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void layer_norm(const T* in, const T* w, const T* b, int64_t rows, int64_t n,
                double eps, T* out, T* mean_out, T* rstd_out) {
  if constexpr (std::is_same_v<T, float>) {
    // Float: the kernel maths library's vector rows (kernels/math/
    // norm.h), spread over the pool; the loop below is the reference for
    // the other dtypes.
    math::layer_norm_f32(size_t(rows), size_t(n), in, w, b, float(eps), out, mean_out,
                        rstd_out);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const T* x = in + r * n;
    T* y = out + r * n;
    double mean, rstd;
    mean_rstd(x, n, eps, &mean, &rstd);
    mean_out[r] = T(mean);
    rstd_out[r] = T(rstd);
    using C = OpMath<T>;
    const C m = C(mean), s = C(rstd);
    for (int64_t i = 0; i < n; ++i) {
      C v = (C(x[i]) - m) * s;
      if (w != nullptr) {
        v *= C(w[i]);
      }
      if (b != nullptr) {
        v += C(b[i]);
      }
      y[i] = T(v);
    }
  }
}

void native_layer_norm_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::native_layer_norm.out",
               tuple_op_arg_count(args.size(), 8, 3));
  const Tensor input = a.tensor(0);
  const Span<int64_t> shape = a.int_list(1);
  const Optional<Tensor> weight = a.optional_tensor(2), bias = a.optional_tensor(3);
  const double eps = a.double_value(4);
  const Tensor out = a.tensor(5), mean = a.tensor(6), rstd = a.tensor(7);
  if (!a.ok() ||
      (!a.prepared() && !check_norm_outputs(a, input, out, mean, rstd))) {
    return;
  }
  const size_t ndim = input.dim();
  if (shape.size() == 0 || shape.size() > ndim) {
    a.fail(Error::InvalidArgument,
           "normalized_shape has %zu dims for an input of %zu dims", shape.size(),
           ndim);
    return;
  }
  const size_t axis = ndim - shape.size();
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != input.sizes()[axis + i]) {
      a.fail(Error::InvalidArgument,
             "normalized_shape[%zu] = %lld does not match input dim %zu (%d)", i,
             static_cast<long long>(shape[i]), axis + i,
             int(input.sizes()[axis + i]));
      return;
    }
    n *= shape[i];
  }
  const bool params_ok =
      a.prepared() ? check_norm_param_numel(a, weight, n, "weight") &&
                         check_norm_param_numel(a, bias, n, "bias")
                   : check_norm_param(a, weight, input.scalar_type(), n, "weight") &&
                         check_norm_param(a, bias, input.scalar_type(), n, "bias");
  if (!params_ok) {
    return;
  }
  Shape stat = shape_of(input);
  for (size_t d = axis; d < ndim; ++d) {
    stat.sizes[d] = 1;
  }
  if ((!a.prepared() && !resize_out(a, out, shape_of(input).span())) ||
      !match_out_shape(a, mean, stat.span()) || !match_out_shape(a, rstd, stat.span()) ||
      !checks_done(a)) {
    return;
  }
  const int64_t rows = n == 0 ? 0 : input.numel() / n;
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    layer_norm<T>(input.const_data_ptr<T>(),
                  weight.has_value() ? weight.value().const_data_ptr<T>() : nullptr,
                  bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
                  rows, n, eps, out.mutable_data_ptr<T>(),
                  mean.mutable_data_ptr<T>(), rstd.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::native_layer_norm.out", native_layer_norm_out_boxed);

}  // namespace ember
