// Dispatch over the four floating dtypes (Float, Double, Half, BFloat16) for
// the normalization, softmax, pooling and resampling kernels. Half and
// BFloat16 compute in float (OpMath<T>), the others in their own type.
#pragma once

#include <type_traits>

#include "kernels/portable/util/dtype_util.h"

namespace ember {

template <typename T>
using OpMath = typename std::conditional<std::is_same<T, double>::value, double,
                                         float>::type;

template <typename F>
bool visit_floating_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Float: f(TypeTag<float>{}); return true;
    case ScalarType::Double: f(TypeTag<double>{}); return true;
    case ScalarType::Half: f(TypeTag<Half>{}); return true;
    case ScalarType::BFloat16: f(TypeTag<BFloat16>{}); return true;
    default: return false;
  }
}

}  // namespace ember
