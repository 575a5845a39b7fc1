// quantized_decomposed::choose_qparams.Tensor_out(Tensor input,
//     int quant_min, int quant_max, float eps, ScalarType dtype, *,
//     Tensor(a!) scale_out, Tensor(b!) zero_point_out)
//     -> (Tensor(a!), Tensor(b!))
// Per-tensor affine parameters as the eager reference computes them
// (determine_qparams, float32 math): the range [min(x, 0), max(x, 0)]
// mapped onto [quant_min, quant_max], scale at least eps, zero point
// rounded and clamped. scale_out (Double) and zero_point_out (Long) hold
// one element each. Boxed: 8 values (one returned list) or 9.
#include <cmath>

#include <cstdint>

#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void choose_qparams_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 8 ? 8 : 9;
  KernelArgs a(ctx, args, "quantized_decomposed::choose_qparams.Tensor_out", count);
  const Tensor input = a.tensor(0);
  const int64_t quant_min = a.int_value(1), quant_max = a.int_value(2);
  const double eps = a.double_value(3);
  (void)a.int_value(4);
  const Tensor scale_out = a.tensor(5);
  const Tensor zp_out = a.tensor(6);
  if (!a.ok() || !check_floating(a, input, "input")) {
    return;
  }
  if (quant_min > quant_max || quant_min < INT32_MIN || quant_max > INT32_MAX) {
    a.fail(Error::InvalidArgument, "quant range [%lld, %lld] is invalid",
           static_cast<long long>(quant_min), static_cast<long long>(quant_max));
    return;
  }
  if (scale_out.scalar_type() != ScalarType::Double ||
      zp_out.scalar_type() != ScalarType::Long || scale_out.numel() != 1 ||
      zp_out.numel() != 1) {
    a.fail(Error::InvalidArgument,
           "scale_out must be one Double and zero_point_out one Long");
    return;
  }
  double* scale = scale_out.mutable_data_ptr<double>();
  int64_t* zero_point = zp_out.mutable_data_ptr<int64_t>();
  if (input.numel() == 0) {
    *scale = 1.0;
    *zero_point = 0;
    return;
  }
  float lo = 0.0f, hi = 0.0f;  // min(x, 0) and max(x, 0)
  bool nan = false;
  for (int64_t i = 0; i < input.numel(); ++i) {
    const float v = float(element_as_double(input, i));
    nan = nan || std::isnan(v);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  if (nan) {
    a.fail(Error::InvalidArgument, "input contains NaN; no quantization range");
    return;
  }
  float s = (hi - lo) / float(double(quant_max - quant_min));
  s = s > float(eps) ? s : float(eps);
  // lo / s can be NaN or out of int32 range for infinite or huge inputs:
  // convert only what an int32 holds (casting anything else is undefined).
  const float ratio = std::nearbyint(lo / s);
  const int64_t shift = !(ratio == ratio)          ? 0
                        : ratio <= -2147483648.0f ? INT32_MIN
                        : ratio >= 2147483647.0f  ? INT32_MAX
                                                  : int64_t(ratio);
  int64_t zp = quant_min - shift;
  zp = zp < quant_min ? quant_min : (zp > quant_max ? quant_max : zp);
  *scale = double(s);
  *zero_point = zp;
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::choose_qparams.Tensor_out",
                      choose_qparams_tensor_out_boxed);

}  // namespace ember
