#include "kernels/portable/util/norm_util.h"

namespace ember {

bool check_norm_param(KernelArgs& a, Optional<Tensor> t, ScalarType type,
                      int64_t numel, const char* what) {
  if (!t.has_value()) {
    return true;
  }
  const Tensor v = t.value();
  if (v.scalar_type() != type) {
    return a.fail(Error::InvalidArgument, "%s has dtype %s, expected %s", what,
                  scalar_type_name(v.scalar_type()), scalar_type_name(type));
  }
  return check_norm_param_numel(a, t, numel, what) && check_contiguous(a, v, what);
}

bool check_norm_outputs(KernelArgs& a, Tensor input, Tensor out, Tensor mean, Tensor rstd) {
  return require_floating(a, input, "input") && check_same_dtype(a, input, out) &&
         check_same_dtype(a, input, mean) && check_same_dtype(a, input, rstd) &&
         check_contiguous(a, input, "input") && check_contiguous(a, out, "out0") &&
         check_contiguous(a, mean, "out1") && check_contiguous(a, rstd, "out2");
}

bool check_norm_param_numel(KernelArgs& a, Optional<Tensor> t, int64_t numel,
                            const char* what) {
  if (!t.has_value() || t.value().numel() == numel) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "%s has %lld elements, expected %lld", what,
                static_cast<long long>(t.value().numel()), static_cast<long long>(numel));
}

}  // namespace ember
