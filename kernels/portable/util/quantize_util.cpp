#include "kernels/portable/util/quantize_util.h"

#include "kernels/portable/util/convert.h"

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

}  // namespace ember
