#include "kernels/portable/util/fill.h"

#include <limits>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/scalar_util.h"

namespace ember {

bool fill_with_scalar(KernelArgs& args, Tensor t, const Scalar& value) {
  bool ok = false;
  const bool known = visit_storage_dtype(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v{};
    if constexpr (is_reduced_float_v<T>) {
      float f;
      ok = scalar_to(args, value, "fill_value", &f);
      v = T(f);
    } else if constexpr (std::is_integral<T>::value &&
                         !std::is_same<T, bool>::value) {
      // A float fills an integral tensor truncated, if it is in range. The
      // upper bound is exclusive: max + 1 is a power of two, exact as a
      // double (double(INT64_MAX) rounds up to 2^63, which does not fit).
      if (value.is_floating()) {
        const double d = value.d;
        ok = d >= double(std::numeric_limits<T>::lowest()) &&
             d < double(std::numeric_limits<T>::max() / 2 + 1) * 2.0;
        if (!ok) {
          args.fail(Error::InvalidArgument,
                    "fill_value %g does not fit out dtype %s", d,
                    scalar_type_name(t.scalar_type()));
          return;
        }
        v = static_cast<T>(d);
      } else {
        ok = scalar_to(args, value, "fill_value", &v);
      }
    } else {
      ok = scalar_to(args, value, "fill_value", &v);
    }
    if (!ok) {
      return;
    }
    T* data = t.mutable_data_ptr<T>();
    const int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) {
      data[i] = v;
    }
  });
  if (!known) {
    return args.fail(Error::InvalidArgument, "unsupported out dtype %s",
                     scalar_type_name(t.scalar_type()));
  }
  return ok;
}

}  // namespace ember
