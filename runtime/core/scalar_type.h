// Element types of tensors. Values match PyTorch's c10::ScalarType and the
// serialized schema byte (schema/scalar_type.fbs).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/half.h"

namespace ember {

enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,    // (real, imaginary) pairs: stored and moved; the
  ComplexFloat = 9,   // spectral operators (_fft_*), abs, permute_copy,
  ComplexDouble = 10, // squeeze_copy and view_as_real_copy take them
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits16 = 22,
  Float8_e5m2 = 23,
  Float8_e4m3fn = 24,
  Float8_e5m2fnuz = 25,
  Float8_e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

// Bytes per element; 0 for a value that is not a known ScalarType (the
// loader uses that to reject untrusted bytes).
size_t element_size(ScalarType t);
// True when `raw` (a serialized byte) names a type this runtime can store.
bool is_valid_scalar_type(int raw);
// "Float", "Long", ...; "Unknown(<n>)" style names are not produced, unknown
// values give "Unknown".
const char* scalar_type_name(ScalarType t);

bool is_floating_type(ScalarType t);  // Half, Float, Double, BFloat16
bool is_integral_type(ScalarType t, bool include_bool);
bool is_complex_type(ScalarType t);  // ComplexHalf, ComplexFloat, ComplexDouble

// C++ type for each ScalarType, for kernels' switch-and-template dispatch.
template <ScalarType T> struct CppTypeOf;
template <> struct CppTypeOf<ScalarType::Byte> { using type = uint8_t; };
template <> struct CppTypeOf<ScalarType::Char> { using type = int8_t; };
template <> struct CppTypeOf<ScalarType::Short> { using type = int16_t; };
template <> struct CppTypeOf<ScalarType::Int> { using type = int32_t; };
template <> struct CppTypeOf<ScalarType::Long> { using type = int64_t; };
template <> struct CppTypeOf<ScalarType::Half> { using type = Half; };
template <> struct CppTypeOf<ScalarType::Float> { using type = float; };
template <> struct CppTypeOf<ScalarType::Double> { using type = double; };
template <> struct CppTypeOf<ScalarType::Bool> { using type = bool; };
template <> struct CppTypeOf<ScalarType::BFloat16> { using type = BFloat16; };
template <> struct CppTypeOf<ScalarType::UInt16> { using type = uint16_t; };
template <> struct CppTypeOf<ScalarType::UInt32> { using type = uint32_t; };
template <> struct CppTypeOf<ScalarType::UInt64> { using type = uint64_t; };

// The reverse: the ScalarType of a C++ element type (float -> Float,
// int64_t -> Long, bool -> Bool, ...), for kernels and tensor helpers.
template <typename T> struct ScalarTypeOf;
template <> struct ScalarTypeOf<uint8_t> { static constexpr ScalarType value = ScalarType::Byte; };
template <> struct ScalarTypeOf<int8_t> { static constexpr ScalarType value = ScalarType::Char; };
template <> struct ScalarTypeOf<int16_t> { static constexpr ScalarType value = ScalarType::Short; };
template <> struct ScalarTypeOf<int32_t> { static constexpr ScalarType value = ScalarType::Int; };
template <> struct ScalarTypeOf<int64_t> { static constexpr ScalarType value = ScalarType::Long; };
template <> struct ScalarTypeOf<Half> { static constexpr ScalarType value = ScalarType::Half; };
template <> struct ScalarTypeOf<float> { static constexpr ScalarType value = ScalarType::Float; };
template <> struct ScalarTypeOf<double> { static constexpr ScalarType value = ScalarType::Double; };
template <> struct ScalarTypeOf<bool> { static constexpr ScalarType value = ScalarType::Bool; };
template <> struct ScalarTypeOf<BFloat16> { static constexpr ScalarType value = ScalarType::BFloat16; };
template <> struct ScalarTypeOf<uint16_t> { static constexpr ScalarType value = ScalarType::UInt16; };
template <> struct ScalarTypeOf<uint32_t> { static constexpr ScalarType value = ScalarType::UInt32; };
template <> struct ScalarTypeOf<uint64_t> { static constexpr ScalarType value = ScalarType::UInt64; };

}  // namespace ember
