// Converting an ATen Scalar argument to a kernel's compute type, with
// PyTorch's checks: no float scalar into integral math, and no integer
// scalar outside the compute type's range.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

template <typename C>
bool scalar_to(KernelArgs& args, const Scalar& s, const char* what, C* out) {
  if constexpr (std::is_same<C, bool>::value) {
    *out = s.is_floating() ? s.d != 0.0 : s.to_int() != 0;
    return true;
  } else if constexpr (std::is_integral<C>::value) {
    if (s.is_floating()) {
      return args.fail(Error::InvalidArgument,
                       "%s is a floating-point scalar but the computation is "
                       "integral",
                       what);
    }
    const int64_t v = s.to_int();
    if (v < int64_t(std::numeric_limits<C>::lowest()) ||
        (uint64_t(std::numeric_limits<C>::max()) < uint64_t(INT64_MAX) &&
         v > int64_t(std::numeric_limits<C>::max()))) {
      return args.fail(Error::InvalidArgument,
                       "%s = %lld does not fit the %s computation", what,
                       static_cast<long long>(v),
                       scalar_type_name(scalar_type_of<C>()));
    }
    *out = static_cast<C>(v);
    return true;
  } else {
    *out = s.is_floating() ? static_cast<C>(s.d)
                           : static_cast<C>(s.to_int());
    return true;
  }
}

}  // namespace ember
