// The vector maths behind vmath.cpp and softmax.cpp: polynomial
// approximations on GCC/Clang vector types, instantiated per ISA by the
// functions that include this header (see vmath.cpp for the fits and
// their error bounds). Internal to kernels/math.
#pragma once

#include <cstdint>

#include "kernels/math/isa.h"

namespace ember::math {

constexpr float kExpPoly[] = {0.5f,           0.166666672f,   0.0416666716f, 0.00833318662f,
                              0.00138876913f, 0.00019963659f, 2.55022442e-05f};
constexpr float kErfSmall[] = {1.12837911f,   -0.376124173f,  0.112814769f,
                               -0.026762018f, 0.00499333721f, -0.000601670064f};
constexpr float kErfcScaled[] = {0.255395353f,    -0.106798202f,   0.0418107696f,
                                 -0.0154182948f,  0.00545926206f, -0.00194413785f,
                                 0.000465774821f, -0.000148968524f, 0.000142798628f};
constexpr float kTanhSmall[] = {-0.333332419f, 0.133309662f,  -0.0537610762f,
                                0.0210157223f, -0.00700160675f, 0.00137026387f};
constexpr float kErfSplit = 0.875f;
constexpr float kErfOne = 3.92f;    // erf rounds to 1 in float from about 3.83
constexpr float kTanhSplit = 0.875f;
constexpr float kTanhOne = 9.1f;    // tanh rounds to 1 in float from about 9.01

// Vector math on VF (float lanes) and VI (int32 lanes of the same width).
// Each function maps `x` to `out` in place of returning a vector (see
// load_vec in xnn_simd.h).
template <typename VF, typename VI>
struct VMath {
  typedef uint32_t VU __attribute__((vector_size(sizeof(VF))));

  static EMBER_MATH_INLINE void abs(const VF& x, VF& out) { out = VF(VI(x) & 0x7fffffff); }
  // |mag| with the sign of `sign`; mag must be non-negative.
  static EMBER_MATH_INLINE void copysign(const VF& mag, const VF& sign, VF& out) {
    out = VF(VI(mag) | (VI(sign) & int32_t(0x80000000u)));
  }
  template <size_t N>
  static EMBER_MATH_INLINE void horner(const float (&c)[N], const VF& x, VF& out) {
    out = VF{} + c[N - 1];
    for (size_t i = N - 1; i-- > 0;) out = out * x + c[i];
  }

  // e^y for y in [-104, 89] (NaN passes through): y = n ln2 + r, and
  // 2^n applied in two factors so that subnormal results round once.
  static EMBER_MATH_INLINE void exp_bounded(const VF& y, VF& out) {
    constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const VF kf = y * 1.44269504f + kMagic;
    const VF n = kf - kMagic;
    VF r = y - n * 0.693145752f;  // ln 2, high 16 bits: n * hi is exact
    r = r - n * 1.42860677e-06f;  // ln 2 - hi
    VF p;
    horner(kExpPoly, r, p);
    p = (p * (r * r) + r) + 1.0f;
    // n from the bits of kf; 2^n1 and 2^n2 as exponent fields (unsigned
    // arithmetic: a NaN lane's bits are garbage and must not overflow).
    const VI ni = VI(VU(kf) - VU(VF{} + kMagic));
    const VI n1 = ni >> 1;
    const VU n2 = VU(ni) - VU(n1);
    out = p * VF((VU(n1) + 127u) << 23) * VF((n2 + 127u) << 23);
  }

  static EMBER_MATH_INLINE void exp(const VF& x, VF& out) {
    VF y = x > 89.0f ? VF{} + 89.0f : x;
    y = y < -104.0f ? VF{} - 104.0f : y;
    exp_bounded(y, out);
  }

  // For a = |z| (or NaN): erf(a) below the split, erfc(a) from it on
  // (0 from kErfOne on); `small` says which.
  static EMBER_MATH_INLINE void erf_parts(const VF& a, VI& small, VF& out) {
    small = a < kErfSplit;
    const VF ac = a > kErfOne ? VF{} + kErfOne : a;
    const VF t = ac * ac;
    VF lo, scaled, e;
    horner(kErfSmall, t, lo);
    horner(kErfcScaled, ac - 2.0f, scaled);
    exp_bounded(-t, e);
    const VF hi = a >= kErfOne ? VF{} : e * scaled;
    out = small ? ac * lo : hi;
  }

  static EMBER_MATH_INLINE void erf(const VF& x, VF& out) {
    VF a, part;
    VI small;
    abs(x, a);
    erf_parts(a, small, part);
    copysign(small ? part : 1.0f - part, x, out);
  }

  static EMBER_MATH_INLINE void gelu(const VF& x, VF& out) {
    const VF z = x * 0.707106781f;
    VF a, part;
    VI small;
    abs(z, a);
    erf_parts(a, small, part);
    // 1 + erf(z); for z < 0 that is 1 - erf(|z|) = erfc(|z|), used as is.
    const VF pos = small ? 1.0f + part : 2.0f - part;
    const VF neg = small ? 1.0f - part : part;
    out = 0.5f * x * (z < 0.0f ? neg : pos);
  }

  static EMBER_MATH_INLINE void tanh(const VF& x, VF& out) {
    VF a, poly, e;
    abs(x, a);
    const VF ac = a > kTanhOne ? VF{} + kTanhOne : a;
    const VF t = ac * ac;
    horner(kTanhSmall, t, poly);
    exp_bounded(ac + ac, e);
    const VF lo = (ac * t) * poly + ac;
    const VF hi = 1.0f - 2.0f / (e + 1.0f);
    copysign(a < kTanhSplit ? lo : hi, x, out);
  }

  // 1 / (1 + e^-x); e^-x is bounded to [-104, 89], so below x = -89 the
  // result is 1 / inf = 0 (the exact value is under 2.3e-39).
  static EMBER_MATH_INLINE void sigmoid(const VF& x, VF& out) {
    VF e;
    exp(-x, e);
    out = 1.0f / (1.0f + e);
  }
};

}  // namespace ember::math
