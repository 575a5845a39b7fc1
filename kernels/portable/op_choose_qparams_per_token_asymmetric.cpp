// quantized_decomposed::choose_qparams_per_token_asymmetric.out(
//     Tensor input, ScalarType dtype, *, Tensor(a!) scale_out,
//     Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))
// Per-token (every last-dim row) int8 affine parameters as the eager
// reference computes them, in float32 (double for a Double input): with
// lo = min(row, 0), hi = max(row, 0),
//   scale = max((hi - lo) / 255, FLT_EPSILON)
//   zero_point = round_half_even(clamp(
//       (-128 + lo / scale) + (127 + hi / scale) > 0 ? -128 - lo / scale
//                                                    : 127 - hi / scale,
//       -128, 127))
// scale_out (Double) and zero_point_out (Long) are [*input.shape[:-1], 1].
// dtype is not read by the reference (its range is fixed to int8).
// Boxed: 5 values (one returned list) or 6.
#include <cfloat>
#include <cmath>

#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// One token's parameters from its `width` values, in float32 (double for
// a Double input, as the reference's tensor maths would be).
template <typename T>
void choose_token(const T* x, int64_t width, double* scale_out, int64_t* zp_out) {
  using C = OpMath<T>;
  constexpr C kQmin = -128, kQmax = 127;
  // min(row, 0) and max(row, 0), propagating NaN like torch.amin/amax.
  C lo = 0, hi = 0;
  for (int64_t i = 0; i < width; ++i) {
    const C v = C(x[i]);
    lo = (v < lo || v != v) ? v : lo;
    hi = (v > hi || v != v) ? v : hi;
  }
  C scale = (hi - lo) / (kQmax - kQmin);
  scale = scale < C(FLT_EPSILON) ? C(FLT_EPSILON) : scale;  // NaN stays NaN
  const C lo_s = lo / scale, hi_s = hi / scale;
  C zp = (kQmin + lo_s) + (kQmax + hi_s) > 0 ? kQmin - lo_s : kQmax - hi_s;
  zp = zp < kQmin ? kQmin : (zp > kQmax ? kQmax : zp);
  zp = std::nearbyint(zp);
  *scale_out = double(scale);
  // NaN converts to 0 (a C++ cast of NaN is undefined); the value is
  // inside [-128, 127] otherwise.
  *zp_out = zp == zp ? int64_t(zp) : 0;
}

void choose_qparams_per_token_asymmetric_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 5 ? 5 : 6;
  KernelArgs a(ctx, args, "quantized_decomposed::choose_qparams_per_token_asymmetric.out",
               count);
  const Tensor input = a.tensor(0);
  (void)a.int_value(1);
  const Tensor scale_out = a.tensor(2);
  const Tensor zp_out = a.tensor(3);
  if (!a.ok() || !check_floating(a, input, "input") || !check_contiguous(a, input, "input")) {
    return;
  }
  if (input.dim() == 0) {
    a.fail(Error::InvalidArgument, "input must have at least one dim");
    return;
  }
  if (scale_out.scalar_type() != ScalarType::Double ||
      zp_out.scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "scale_out must be Double and zero_point_out Long, got %s "
           "and %s", scalar_type_name(scale_out.scalar_type()),
           scalar_type_name(zp_out.scalar_type()));
    return;
  }
  Shape shape = shape_of(input);
  shape.sizes[shape.dim - 1] = 1;
  if (!resize_out(a, scale_out, shape.span()) || !resize_out(a, zp_out, shape.span())) {
    return;
  }
  const int64_t width = input.sizes()[input.dim() - 1];
  const int64_t tokens = width == 0 ? shape.numel() : input.numel() / width;
  double* scales = scale_out.mutable_data_ptr<double>();
  int64_t* zps = zp_out.mutable_data_ptr<int64_t>();
  (void)visit_storage_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point<T>::value || is_reduced_float_v<T>) {
      const T* x = input.const_data_ptr<T>();
      for (int64_t t = 0; t < tokens; ++t) {
        choose_token(x + t * width, width, scales + t, zps + t);
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                      choose_qparams_per_token_asymmetric_out_boxed);

}  // namespace ember
