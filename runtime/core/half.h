// 16-bit floating-point storage types: IEEE binary16 (`Half`) and the
// truncated-float32 `BFloat16`. Both convert through float; arithmetic is
// done in float by the kernels. Conversions round to nearest even and keep
// NaN and infinities, as PyTorch does.
#pragma once

#include <cstdint>
#include <cstring>

namespace ember {

namespace detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace detail

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  BFloat16(float f) : bits(from_float(f)) {}  // NOLINT: implicit like PyTorch
  operator float() const { return detail::bits_float(uint32_t(bits) << 16); }  // NOLINT

  static uint16_t from_float(float f) {
    uint32_t u = detail::float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      return 0x7fc0;  // canonical quiet NaN
    }
    uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>((u + rounding_bias) >> 16);
  }
};

struct Half {
  uint16_t bits = 0;

  Half() = default;
  Half(float f) : bits(from_float(f)) {}  // NOLINT
  operator float() const { return to_float(bits); }  // NOLINT

  static float to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) {  // inf or NaN
      return detail::bits_float(sign | 0x7f800000u | (mantissa << 13));
    }
    if (exponent == 0) {
      if (mantissa == 0) {
        return detail::bits_float(sign);
      }
      // Subnormal: normalize.
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        exponent--;
      }
      mantissa &= 0x3ffu;
      return detail::bits_float(sign | (exponent << 23) | (mantissa << 13));
    }
    return detail::bits_float(sign | ((exponent + 127 - 15) << 23) |
                              (mantissa << 13));
  }

  static uint16_t from_float(float f) {
    const uint32_t u = detail::float_bits(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) {
      return sign | 0x7e00u;  // NaN
    }
    if (abs >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
      return sign | 0x7c00u;
    }
    if (abs < 0x38800000u) {  // below the smallest normal half: subnormal
      // Add 0.5 so the float adder does the round-to-nearest-even for us.
      const float magic = detail::bits_float(0x3f000000u);  // 0.5f
      float v = detail::bits_float(abs) + magic;
      return sign | static_cast<uint16_t>(detail::float_bits(v) - 0x3f000000u);
    }
    const uint32_t mant_odd = (abs >> 13) & 1u;
    uint32_t rounded = abs + 0xfffu + mant_odd - (uint32_t(127 - 15) << 23);
    return sign | static_cast<uint16_t>(rounded >> 13);
  }
};

}  // namespace ember
