// quantized_decomposed::dequantize_per_tensor.out(Tensor input, float scale,
//     int zero_point, int quant_min, int quant_max, ScalarType dtype, *,
//     ScalarType? out_dtype=None, Tensor(a!) out)
// quantized_decomposed::dequantize_per_tensor.Tensor_out(Tensor input,
//     Tensor scale, Tensor zero_point, int quant_min, int quant_max,
//     ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out)
// out = (float(q) - zero_point) * float(scale), in float32 (in double for
// a Double out); out's dtype is out_dtype (Float when None).
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void dequantize(KernelArgs& a, Tensor input, double scale, int64_t zero_point,
                int64_t quant_min, int64_t quant_max, int64_t dtype,
                Optional<int64_t> out_dtype, Tensor out) {
  // quant_min/quant_max only describe the input; PyTorch does not clamp.
  if (!check_quantized(a, input, dtype, quant_min, quant_max, "input") ||
      !check_floating(a, out, "out") || !check_contiguous(a, input, "input") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  const int64_t want = out_dtype.has_value() ? out_dtype.value()
                                             : int64_t(ScalarType::Float);
  if (!check_out_dtype(a, out, want, "out_dtype") || !resize_out(a, out, input.sizes())) {
    return;
  }
  (void)visit_quantized_dtype(input.scalar_type(), [&](auto qtag) {
    using Q = typename decltype(qtag)::type;
    const Q* q = input.const_data_ptr<Q>();
    (void)visit_storage_dtype(out.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same<T, double>::value) {
        T* o = out.mutable_data_ptr<T>();
        for (int64_t i = 0; i < input.numel(); ++i) {
          o[i] = (double(q[i]) - double(zero_point)) * scale;
        }
      } else if constexpr (std::is_same<T, float>::value || is_reduced_float_v<T>) {
        T* o = out.mutable_data_ptr<T>();
        const float zp = float(zero_point), s = float(scale);
        for (int64_t i = 0; i < input.numel(); ++i) {
          o[i] = T((float(q[i]) - zp) * s);
        }
      }
    });
  });
}

void dequantize_per_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::dequantize_per_tensor.out", 9);
  const Tensor input = a.tensor(0);
  const double scale = a.double_value(1);
  const int64_t zero_point = a.int_value(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5);
  const Optional<int64_t> out_dtype = a.optional_enum(6);
  const Tensor out = a.tensor(7);
  if (a.ok()) {
    dequantize(a, input, scale, zero_point, quant_min, quant_max, dtype, out_dtype, out);
  }
}

void dequantize_per_tensor_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::dequantize_per_tensor.Tensor_out", 9);
  const Tensor input = a.tensor(0);
  const Tensor scale = a.tensor(1);
  const Tensor zero_point = a.tensor(2);
  const int64_t quant_min = a.int_value(3), quant_max = a.int_value(4);
  const int64_t dtype = a.int_value(5);
  const Optional<int64_t> out_dtype = a.optional_enum(6);
  const Tensor out = a.tensor(7);
  if (!a.ok() || !check_supported_dtype(a, scale, "scale") ||
      !check_supported_dtype(a, zero_point, "zero_point")) {
    return;
  }
  if (scale.numel() != 1 || zero_point.numel() != 1) {
    a.fail(Error::InvalidArgument, "scale and zero_point must have one element");
    return;
  }
  dequantize(a, input, element_as_double(scale, 0), element_as_int(zero_point, 0),
             quant_min, quant_max, dtype, out_dtype, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_tensor.out",
                      dequantize_per_tensor_out_boxed);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_tensor.Tensor_out",
                      dequantize_per_tensor_tensor_out_boxed);

}  // namespace ember
