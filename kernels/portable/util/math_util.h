// Element functions with PyTorch's semantics for the elementwise math
// kernels (div with rounding modes, remainder, fmod, pow, maximum/minimum,
// clamp, sign), and the dtype visitors those kernels dispatch with.
//
// Integer division helpers take a divisor already known to be non-zero
// (kernels check and report division by zero themselves); every integer
// edge case that is undefined in C++ (INT_MIN / -1, INT_MIN % -1) is given
// the wrapped result PyTorch produces. Floating helpers follow c10's
// formulas so NaN, infinities and signed zeros come out the same.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/dtype_util.h"

namespace ember {

// Compute types without Bool: uint8, int8..int64, float, double.
template <typename F>
bool visit_real_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Byte: f(TypeTag<uint8_t>{}); return true;
    case ScalarType::Char: f(TypeTag<int8_t>{}); return true;
    case ScalarType::Short: f(TypeTag<int16_t>{}); return true;
    case ScalarType::Int: f(TypeTag<int32_t>{}); return true;
    case ScalarType::Long: f(TypeTag<int64_t>{}); return true;
    case ScalarType::Float: f(TypeTag<float>{}); return true;
    case ScalarType::Double: f(TypeTag<double>{}); return true;
    default: return false;
  }
}

// Bool and the integer types (bitwise ops).
template <typename F>
bool visit_integral_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: f(TypeTag<bool>{}); return true;
    case ScalarType::Byte: f(TypeTag<uint8_t>{}); return true;
    case ScalarType::Char: f(TypeTag<int8_t>{}); return true;
    case ScalarType::Short: f(TypeTag<int16_t>{}); return true;
    case ScalarType::Int: f(TypeTag<int32_t>{}); return true;
    case ScalarType::Long: f(TypeTag<int64_t>{}); return true;
    default: return false;
  }
}

template <typename T>
constexpr bool is_int_v = std::is_integral<T>::value && !std::is_same<T, bool>::value;

// -x with wrap-around for integers.
template <typename T>
inline T neg_value(T x) {
  if constexpr (is_int_v<T>) {
    return sub_values(T(0), x);
  } else {
    return -x;
  }
}

// Integer division rounding toward zero; y != 0.
template <typename T>
inline T int_div_trunc(T x, T y) {
  if constexpr (std::is_signed<T>::value) {
    if (y == T(-1)) {
      return neg_value(x);
    }
  }
  return static_cast<T>(x / y);
}

// Python's x // y for integers; y != 0.
template <typename T>
inline T int_div_floor(T x, T y) {
  if constexpr (std::is_signed<T>::value) {
    if (y == T(-1)) {
      return neg_value(x);
    }
    T q = static_cast<T>(x / y);
    const T r = static_cast<T>(x % y);
    if (r != 0 && ((r < 0) != (y < 0))) {
      --q;
    }
    return q;
  } else {
    return static_cast<T>(x / y);
  }
}

// C's x % y (sign of x); y != 0.
template <typename T>
inline T int_fmod(T x, T y) {
  if constexpr (std::is_signed<T>::value) {
    if (y == T(-1)) {
      return T(0);
    }
  }
  return static_cast<T>(x % y);
}

// Python's x % y (sign of y); y != 0.
template <typename T>
inline T int_remainder(T x, T y) {
  T r = int_fmod(x, y);
  if constexpr (std::is_signed<T>::value) {
    if (r != 0 && ((r < 0) != (y < 0))) {
      r = static_cast<T>(r + y);
    }
  }
  return r;
}

// c10::div_floor_floating.
template <typename T>
inline T float_div_floor(T a, T b) {
  if (b == T(0)) {
    return a / b;
  }
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) {
    div -= T(1);
  }
  if (div != T(0)) {
    T floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) {
      floordiv += T(1);
    }
    return floordiv;
  }
  return std::copysign(T(0), a / b);
}

// PyTorch's floating remainder: fmod moved to the divisor's sign.
template <typename T>
inline T float_remainder(T a, T b) {
  T mod = std::fmod(a, b);
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) {
    mod += b;
  }
  return mod;
}

// Integer power by squaring with wrap-around; negative exponents give
// 1, -1 or 0 like PyTorch.
template <typename T>
inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed<T>::value) {
    if (exp < 0) {
      if (base == T(1)) {
        return T(1);
      }
      if (base == T(-1)) {
        return (exp & T(1)) ? T(-1) : T(1);
      }
      return T(0);
    }
  }
  T result = T(1);
  while (exp != T(0)) {
    if (exp & T(1)) {
      result = mul_values(result, base);
    }
    exp = static_cast<T>(exp >> 1);
    base = mul_values(base, base);
  }
  return result;
}

template <typename T>
inline T pow_value(T a, T b) {
  if constexpr (is_int_v<T>) {
    return int_pow(a, b);
  } else {
    return std::pow(a, b);
  }
}

// torch.maximum / torch.minimum: NaN wins; otherwise std::max/std::min
// (the first operand on ties, which fixes the sign of zero).
template <typename T>
inline T max_propagate_nan(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    return a != a ? a : (b != b ? b : (a < b ? b : a));
  } else {
    return a < b ? b : a;
  }
}

template <typename T>
inline T min_propagate_nan(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    return a != a ? a : (b != b ? b : (b < a ? b : a));
  } else {
    return b < a ? b : a;
  }
}

// (0 < x) - (x < 0); NaN and both zeros give +0.
template <typename T>
inline T sign_value(T x) {
  if constexpr (std::is_same<T, bool>::value) {
    return x;
  } else if constexpr (std::is_unsigned<T>::value) {
    return T(x != 0);
  } else {
    return static_cast<T>(T(T(0) < x) - T(x < T(0)));
  }
}

// The logistic function 1 / (1 + e^-x) for floating x (sigmoid, glu).
template <typename T>
inline T sigmoid_value(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

}  // namespace ember
