// quantized_decomposed::quantize_per_tensor.out(Tensor input, float scale,
//     int zero_point, int quant_min, int quant_max, ScalarType dtype, *,
//     Tensor(a!) out)
// quantized_decomposed::quantize_per_tensor.Tensor_out(Tensor input,
//     Tensor scale, Tensor zero_point, int quant_min, int quant_max,
//     ScalarType dtype, *, Tensor(a!) out)
// out = clamp(round(x * float(1 / scale)) + zero_point, quant_min,
// quant_max), computed in float32 like the eager reference (Half and
// BFloat16 inputs are widened first). Contiguous tensors.
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void quantize(KernelArgs& a, Tensor input, double scale, int64_t zero_point,
              int64_t quant_min, int64_t quant_max, int64_t dtype, Tensor out) {
  if (!check_floating(a, input, "input") ||
      !check_quantized(a, out, dtype, quant_min, quant_max, "out") ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, out, "out") ||
      !resize_out(a, out, input.sizes())) {
    return;
  }
  const float inv = float(1.0 / scale);
  const float zp = float(zero_point), lo = float(quant_min), hi = float(quant_max);
  (void)visit_quantized_dtype(out.scalar_type(), [&](auto qtag) {
    using Q = typename decltype(qtag)::type;
    Q* o = out.mutable_data_ptr<Q>();
    (void)visit_storage_dtype(input.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_floating_point<T>::value || is_reduced_float_v<T>) {
        const T* x = input.const_data_ptr<T>();
        for (int64_t i = 0; i < input.numel(); ++i) {
          o[i] = static_cast<Q>(quantize_to<float>(float(x[i]), inv, zp, lo, hi));
        }
      }
    });
  });
}

void quantize_per_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::quantize_per_tensor.out", 8);
  const Tensor input = a.tensor(0);
  const double scale = a.double_value(1);
  const int64_t zero_point = a.int_value(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5);
  const Tensor out = a.tensor(6);
  if (a.ok()) {
    quantize(a, input, scale, zero_point, quant_min, quant_max, dtype, out);
  }
}

void quantize_per_tensor_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::quantize_per_tensor.Tensor_out", 8);
  const Tensor input = a.tensor(0);
  const Tensor scale = a.tensor(1);
  const Tensor zero_point = a.tensor(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5);
  const Tensor out = a.tensor(6);
  if (!a.ok() || !check_supported_dtype(a, scale, "scale") ||
      !check_supported_dtype(a, zero_point, "zero_point")) {
    return;
  }
  if (scale.numel() != 1 || zero_point.numel() != 1) {
    a.fail(Error::InvalidArgument, "scale and zero_point must have one element");
    return;
  }
  quantize(a, input, element_as_double(scale, 0), element_as_int(zero_point, 0),
           quant_min, quant_max, dtype, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_tensor.out",
                      quantize_per_tensor_out_boxed);
EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_tensor.Tensor_out",
                      quantize_per_tensor_tensor_out_boxed);

}  // namespace ember
