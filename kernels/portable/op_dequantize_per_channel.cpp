// quantized_decomposed::dequantize_per_channel.out(Tensor input,
//     Tensor scales, Tensor? zero_points, int axis, int quant_min,
//     int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None,
//     Tensor(a!) out)
// out = (q - zero_points[c]) * scales[c] for the channel c along axis,
// computed in scales' dtype (double for Double scales, else float32) like
// the eager reference, then cast to out (out_dtype, Float when None).
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename Types, typename C = typename Types::Compute,
          typename Q = typename Types::Quant, typename T = typename Types::Float>
void run(Tensor input, Tensor scales, const Optional<Tensor>& zero_points,
         size_t axis, Tensor out) {
  const int64_t channels = input.sizes()[axis];
  int64_t inner = 1;
  for (size_t k = axis + 1; k < input.dim(); ++k) {
    inner *= input.sizes()[k];
  }
  const Q* q = input.const_data_ptr<Q>();
  T* o = out.mutable_data_ptr<T>();
  const int64_t n = input.numel();
  for (int64_t base = 0; base < n; base += channels * inner) {
    for (int64_t c = 0; c < channels; ++c) {
      const C s = C(element_as_double(scales, c));
      const int64_t zp =
          zero_points.has_value() ? element_as_int(zero_points.value(), c) : 0;
      const int64_t at = base + c * inner;
      for (int64_t i = 0; i < inner; ++i) {
        // q - zp wraps like PyTorch's int64 subtraction (zp is data and
        // may be anything; a signed overflow would be undefined).
        o[at + i] = T(C(sub_values(int64_t(q[at + i]), zp)) * s);
      }
    }
  }
}

void dequantize_per_channel_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::dequantize_per_channel.out", 10);
  const Tensor input = a.tensor(0);
  const Tensor scales = a.tensor(1);
  const Optional<Tensor> zero_points = a.optional_tensor(2);
  const int64_t axis = a.int_value(3);
  const int64_t quant_min = a.int_value(4), quant_max = a.int_value(5);
  const int64_t dtype = a.int_value(6);
  const Optional<int64_t> out_dtype = a.optional_enum(7);
  const Tensor out = a.tensor(8);
  size_t d;
  if (!a.ok() || !check_quantized(a, input, dtype, quant_min, quant_max, "input") ||
      !check_floating(a, scales, "scales") || !check_floating(a, out, "out") ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, out, "out") ||
      !check_contiguous(a, scales, "scales") ||
      !normalize_dim(a, axis, input.dim(), "axis", &d)) {
    return;
  }
  if (input.dim() == 0) {
    a.fail(Error::InvalidArgument, "input must have at least one dim");
    return;
  }
  const int64_t channels = input.sizes()[d];
  if (scales.numel() != channels ||
      (zero_points.has_value() &&
       (zero_points.value().numel() != channels ||
        !check_supported_dtype(a, zero_points.value(), "zero_points") ||
        !check_contiguous(a, zero_points.value(), "zero_points")))) {
    if (a.ok()) {
      a.fail(Error::InvalidArgument,
             "scales and zero_points must have one entry per channel (%lld)",
             static_cast<long long>(channels));
    }
    return;
  }
  const int64_t want = out_dtype.has_value() ? out_dtype.value()
                                             : int64_t(ScalarType::Float);
  if (!check_out_dtype(a, out, want, "out_dtype") || !resize_out(a, out, input.sizes())) {
    return;
  }
  visit_qdq_types(input, out, scales, [&](auto types) {
    run<decltype(types)>(input, scales, zero_points, d, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_channel.out",
                      dequantize_per_channel_out_boxed);

}  // namespace ember
