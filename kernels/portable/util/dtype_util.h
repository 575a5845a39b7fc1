// Element-type plumbing for the portable kernels.
//
// - scalar_type_of<T>(): the ScalarType of a C++ element type (inverse of
//   CppTypeOf).
// - cast_value<D>(s): PyTorch's element conversion (to bool is "!= 0";
//   Half and BFloat16 go through float).
// - visit_*_dtype(type, f): the only dtype dispatch (this header is its one
//   home). A plain switch that calls the generic callable `f` with a
//   TypeTag<T>; it returns false (and calls nothing) for a type outside the
//   set, so the caller reports the error. Each set is small on purpose:
//   every kernel instantiates its template once per member. The name says
//   the set:
//     visit_storage_dtype                     the ten storage types
//     visit_compute_dtype                     storage minus Half, BFloat16
//     visit_float_or_double_dtype             Float, Double
//     visit_float_double_half_bfloat16_dtype  Float, Double, Half, BFloat16
// - OpMath<T>: the type a floating kernel computes in for element type T.
//
//   visit_compute_dtype(ct, [&](auto tag) {
//     using C = typename decltype(tag)::type;
//     ...
//   });
#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/core/scalar_type.h"

namespace ember {

template <typename T>
struct TypeTag {
  using type = T;
};


template <typename T>
constexpr ScalarType scalar_type_of() {
  return ScalarTypeOf<T>::value;
}

template <typename T>
constexpr bool is_reduced_float_v =
    std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value;

// Converts one element the way PyTorch's static_cast_with_inter_type does
// for real types. Float-to-integer conversion is made defined for every
// value (C++ leaves out-of-range casts undefined, and data can be hostile):
// NaN gives 0, other values go through int64 (saturating at its limits)
// and then wrap to the target width, which is what PyTorch computes on x86
// for values within int32 range (-511.0 -> uint8 1).
template <typename D, typename S>
inline D cast_value(S v) {
  if constexpr (std::is_same<D, S>::value) {
    return v;
  } else if constexpr (is_reduced_float_v<S>) {
    return cast_value<D>(static_cast<float>(v));
  } else if constexpr (std::is_same<D, bool>::value) {
    return v != S(0);
  } else if constexpr (is_reduced_float_v<D>) {
    return D(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
    if (!(v == v)) {
      return D(0);
    }
    const int64_t wide = v <= S(-9.2233720368547758e18)  ? INT64_MIN
                         : v >= S(9.2233720368547758e18) ? INT64_MAX
                                                         : static_cast<int64_t>(v);
    return static_cast<D>(wide);
  } else {
    return static_cast<D>(v);
  }
}

// Reads one stored element. Bool is read as a byte: planned memory that a
// hostile memory plan aliased can hold any byte there, and reading one
// other than 0 or 1 as bool is undefined (any nonzero byte is true).
template <typename T>
inline T load_element(const T* p) {
  if constexpr (std::is_same<T, bool>::value) {
    return *reinterpret_cast<const uint8_t*>(p) != 0;
  } else {
    return *p;
  }
}

// The ten storage types every elementwise kernel accepts.
template <typename F>
bool visit_storage_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: f(TypeTag<bool>{}); return true;
    case ScalarType::Byte: f(TypeTag<uint8_t>{}); return true;
    case ScalarType::Char: f(TypeTag<int8_t>{}); return true;
    case ScalarType::Short: f(TypeTag<int16_t>{}); return true;
    case ScalarType::Int: f(TypeTag<int32_t>{}); return true;
    case ScalarType::Long: f(TypeTag<int64_t>{}); return true;
    case ScalarType::Half: f(TypeTag<Half>{}); return true;
    case ScalarType::BFloat16: f(TypeTag<BFloat16>{}); return true;
    case ScalarType::Float: f(TypeTag<float>{}); return true;
    case ScalarType::Double: f(TypeTag<double>{}); return true;
    default: return false;
  }
}

// Types arithmetic is done in: the storage types minus Half and BFloat16,
// which compute in float (see compute_type_for()).
template <typename F>
bool visit_compute_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: f(TypeTag<bool>{}); return true;
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

// Float and Double only: the matmul and convolution kernels, and the
// elementwise ops that compute in floating point (the float unary ops, div,
// pow, isnan, isinf), called with compute_type_for() of their type.
template <typename F>
bool visit_float_or_double_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Float: f(TypeTag<float>{}); return true;
    case ScalarType::Double: f(TypeTag<double>{}); return true;
    default: return false;
  }
}

// Float, Double, Half and BFloat16 (every floating type but the Float8
// ones): the normalization, softmax, pooling and resampling kernels, which
// read and write T and compute in OpMath<T>.
template <typename F>
bool visit_float_double_half_bfloat16_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Float: f(TypeTag<float>{}); return true;
    case ScalarType::Double: f(TypeTag<double>{}); return true;
    case ScalarType::Half: f(TypeTag<Half>{}); return true;
    case ScalarType::BFloat16: f(TypeTag<BFloat16>{}); return true;
    default: return false;
  }
}

// The type a floating kernel computes in: double for Double, float for
// Float, Half and BFloat16.
template <typename T>
using OpMath = typename std::conditional<std::is_same<T, double>::value, double,
                                         float>::type;

// True for the ten storage types above.
inline bool is_supported_storage_type(ScalarType t) {
  return visit_storage_dtype(t, [](auto) {});
}

// The type elementwise arithmetic for result type `t` runs in.
inline ScalarType compute_type_for(ScalarType t) {
  return (t == ScalarType::Half || t == ScalarType::BFloat16) ? ScalarType::Float
                                                              : t;
}

}  // namespace ember
