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
  if (v.numel() != numel) {
    return a.fail(Error::InvalidArgument, "%s has %lld elements, expected %lld",
                  what, static_cast<long long>(v.numel()),
                  static_cast<long long>(numel));
  }
  return check_contiguous(a, v, what);
}

}  // namespace ember
