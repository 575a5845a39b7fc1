#include "runtime/core/scalar_type.h"

namespace ember {

size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Bool:
    case ScalarType::QInt8:
    case ScalarType::QUInt8:
    case ScalarType::QUInt4x2:
    case ScalarType::QUInt2x4:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e4m3fnuz:
      return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Bits16:
    case ScalarType::UInt16:
      return 2;
    case ScalarType::Int:
    case ScalarType::Float:
    case ScalarType::QInt32:
    case ScalarType::UInt32:
    case ScalarType::ComplexHalf:
      return 4;
    case ScalarType::Long:
    case ScalarType::Double:
    case ScalarType::UInt64:
    case ScalarType::ComplexFloat:
      return 8;
    case ScalarType::ComplexDouble:
      return 16;
  }
  return 0;
}

bool is_valid_scalar_type(int raw) {
  return raw >= -128 && raw <= 127 &&
         element_size(static_cast<ScalarType>(raw)) != 0;
}

const char* scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::ComplexHalf: return "ComplexHalf";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::Bool: return "Bool";
    case ScalarType::QInt8: return "QInt8";
    case ScalarType::QUInt8: return "QUInt8";
    case ScalarType::QInt32: return "QInt32";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::QUInt4x2: return "QUInt4x2";
    case ScalarType::QUInt2x4: return "QUInt2x4";
    case ScalarType::Bits16: return "Bits16";
    case ScalarType::Float8_e5m2: return "Float8_e5m2";
    case ScalarType::Float8_e4m3fn: return "Float8_e4m3fn";
    case ScalarType::Float8_e5m2fnuz: return "Float8_e5m2fnuz";
    case ScalarType::Float8_e4m3fnuz: return "Float8_e4m3fnuz";
    case ScalarType::UInt16: return "UInt16";
    case ScalarType::UInt32: return "UInt32";
    case ScalarType::UInt64: return "UInt64";
  }
  return "Unknown";
}

bool is_floating_type(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float ||
         t == ScalarType::Double || t == ScalarType::BFloat16;
}

bool is_complex_type(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
         t == ScalarType::ComplexDouble;
}

bool is_integral_type(ScalarType t, bool include_bool) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    case ScalarType::Bool:
      return include_bool;
    default:
      return false;
  }
}

}  // namespace ember
