#include "kernels/portable/util/quantize_util.h"

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {

bool check_quantized(KernelArgs& a, Tensor t, int64_t dtype, int64_t quant_min,
                     int64_t quant_max, const char* what) {
  if (int64_t(t.scalar_type()) != dtype) {
    return a.fail(Error::InvalidArgument, "%s has dtype %s but dtype argument is %lld",
                  what, scalar_type_name(t.scalar_type()),
                  static_cast<long long>(dtype));
  }
  int64_t lo = 0, hi = 0;
  const bool known = visit_quantized_dtype(t.scalar_type(), [&](auto tag) {
    using Q = typename decltype(tag)::type;
    lo = int64_t(std::numeric_limits<Q>::lowest());
    hi = int64_t(std::numeric_limits<Q>::max());
  });
  if (!known) {
    return a.fail(Error::InvalidArgument, "%s dtype %s is not a quantized type",
                  what, scalar_type_name(t.scalar_type()));
  }
  if (quant_min < lo || quant_max > hi || quant_min > quant_max) {
    return a.fail(Error::InvalidArgument,
                  "quant range [%lld, %lld] is invalid for %s",
                  static_cast<long long>(quant_min),
                  static_cast<long long>(quant_max),
                  scalar_type_name(t.scalar_type()));
  }
  return true;
}

bool check_floating(KernelArgs& a, Tensor t, const char* what) {
  const ScalarType s = t.scalar_type();
  if (s == ScalarType::Float || s == ScalarType::Double || s == ScalarType::Half ||
      s == ScalarType::BFloat16) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "%s must be floating point, got %s", what,
                scalar_type_name(s));
}

double element_as_double(Tensor t, int64_t i) {
  double v = 0;
  (void)convert_elements(static_cast<const char*>(t.const_data_ptr()) +
                             i * int64_t(t.element_size()),
                         t.scalar_type(), 1, &v, ScalarType::Double, 1, 1);
  return v;
}

int64_t element_as_int(Tensor t, int64_t i) {
  int64_t v = 0;
  (void)convert_elements(static_cast<const char*>(t.const_data_ptr()) +
                             i * int64_t(t.element_size()),
                         t.scalar_type(), 1, &v, ScalarType::Long, 1, 1);
  return v;
}

bool check_per_token(KernelArgs& a, Tensor input, Tensor scales, Tensor zero_points,
                     int64_t* tokens, int64_t* width) {
  if (!check_floating(a, scales, "scales") ||
      !check_supported_dtype(a, zero_points, "zero_points") ||
      !check_contiguous(a, input, "input") || !check_contiguous(a, scales, "scales") ||
      !check_contiguous(a, zero_points, "zero_points")) {
    return false;
  }
  const int64_t w = input.dim() == 0 ? 1 : input.sizes()[input.dim() - 1];
  const int64_t t = w == 0 ? 0 : input.numel() / w;
  if (w != 0 && (scales.numel() != t || zero_points.numel() != t)) {
    return a.fail(Error::InvalidArgument,
                  "scales and zero_points must hold one value per token (%lld), got %lld and "
                  "%lld",
                  static_cast<long long>(t), static_cast<long long>(scales.numel()),
                  static_cast<long long>(zero_points.numel()));
  }
  *tokens = t;
  *width = w;
  return true;
}

bool check_out_dtype(KernelArgs& a, Tensor out, int64_t want, const char* what) {
  if (int64_t(out.scalar_type()) != want) {
    return a.fail(Error::InvalidArgument, "out dtype %s differs from %s %lld",
                  scalar_type_name(out.scalar_type()), what, static_cast<long long>(want));
  }
  return true;
}

}  // namespace ember
