// quantized_decomposed::quantize_per_channel.out(Tensor input, Tensor scales,
//     Tensor zero_points, int axis, int quant_min, int quant_max,
//     ScalarType dtype, *, Tensor(a!) out)
// Like quantize_per_tensor with scales[c] and zero_points[c] for the
// channel c along `axis`. As in the eager reference, the math runs in
// scales' dtype when that is Double (float32 input times a double tensor
// promotes), else in float32. Contiguous tensors.
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename Types, typename C = typename Types::Compute,
          typename Q = typename Types::Quant, typename T = typename Types::Float>
void run(Tensor input, Tensor scales, Tensor zero_points, size_t axis,
         int64_t quant_min, int64_t quant_max, Tensor out) {
  const int64_t channels = input.sizes()[axis];
  int64_t inner = 1;
  for (size_t k = axis + 1; k < input.dim(); ++k) {
    inner *= input.sizes()[k];
  }
  const T* x = input.const_data_ptr<T>();
  Q* o = out.mutable_data_ptr<Q>();
  const C lo = C(quant_min), hi = C(quant_max);
  const int64_t n = input.numel();
  for (int64_t base = 0; base < n; base += channels * inner) {
    for (int64_t c = 0; c < channels; ++c) {
      const C inv = C(1.0) / C(element_as_double(scales, c));
      const C zp = C(element_as_int(zero_points, c));
      const int64_t at = base + c * inner;
      for (int64_t i = 0; i < inner; ++i) {
        o[at + i] = static_cast<Q>(quantize_to<C>(C(float(x[at + i])), inv, zp, lo, hi));
      }
    }
  }
}

void quantize_per_channel_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "quantized_decomposed::quantize_per_channel.out", 9);
  const Tensor input = a.tensor(0);
  const Tensor scales = a.tensor(1);
  const Tensor zero_points = a.tensor(2);
  const int64_t axis = a.int_value(3);
  const int64_t quant_min = a.int_value(4), quant_max = a.int_value(5);
  const int64_t dtype = a.int_value(6);
  const Tensor out = a.tensor(7);
  size_t d;
  if (!a.ok() || !check_floating(a, input, "input") ||
      !check_floating(a, scales, "scales") ||
      !check_supported_dtype(a, zero_points, "zero_points") ||
      !check_quantized(a, out, dtype, quant_min, quant_max, "out") ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, out, "out") ||
      !check_contiguous(a, scales, "scales") ||
      !check_contiguous(a, zero_points, "zero_points") ||
      !normalize_dim(a, axis, input.dim(), "axis", &d)) {
    return;
  }
  if (input.dim() == 0) {
    a.fail(Error::InvalidArgument, "input must have at least one dim");
    return;
  }
  const int64_t channels = input.sizes()[d];
  if (scales.numel() != channels || zero_points.numel() != channels) {
    a.fail(Error::InvalidArgument,
           "scales (%lld) and zero_points (%lld) must have one entry per channel (%lld)",
           static_cast<long long>(scales.numel()),
           static_cast<long long>(zero_points.numel()),
           static_cast<long long>(channels));
    return;
  }
  if (!resize_out(a, out, input.sizes())) {
    return;
  }
  visit_qdq_types(out, input, scales, [&](auto types) {
    run<decltype(types)>(input, scales, zero_points, d, quant_min, quant_max, out);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_channel.out",
                      quantize_per_channel_out_boxed);

}  // namespace ember
