// Vectorized fp32 erf, GELU, exp and tanh for the native steps
// (xnn_native_kernels.h).
//
// The coefficients below were fitted for this file (weighted minimax fits
// in float64, then rounded to float one coefficient at a time with the
// rest refitted) and checked by simulating the float evaluation, with and
// without FMA:
//
//   exp(r), |r| <= ln2/2:  1 + r + r^2 E(r), E of degree 6; 1.3 ulp.
//   erf(a), a < 7/8:       a P(a^2), P of degree 5.
//   erf(a), 7/8 <= a:      1 - exp(-a^2) S(a - 2), S of degree 8,
//                          S(a - 2) ~ erfc(a) exp(a^2) on [7/8, 3.92] (the
//                          fit weighs its error by exp(-a^2)).
//                          erf: below 8e-8 absolute against exact erf.
//   tanh(a), a < 7/8:      a + a^3 T(a^2), T of degree 5.
//   tanh(a), 7/8 <= a:     1 - 2 / (exp(2a) + 1).  About 1 ulp.
//
// Splitting erf at 7/8 keeps both halves accurate in float: below it the
// polynomial's value stays under 0.79, above it the part computed with
// rounding error, exp(-a^2) R(a), stays under 0.22.
#include <algorithm>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kChunk = 16384;  // elements per parallel task

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

  static EMBER_XNN_INLINE void abs(const VF& x, VF& out) { out = VF(VI(x) & 0x7fffffff); }
  // |mag| with the sign of `sign`; mag must be non-negative.
  static EMBER_XNN_INLINE void copysign(const VF& mag, const VF& sign, VF& out) {
    out = VF(VI(mag) | (VI(sign) & int32_t(0x80000000u)));
  }
  template <size_t N>
  static EMBER_XNN_INLINE void horner(const float (&c)[N], const VF& x, VF& out) {
    out = VF{} + c[N - 1];
    for (size_t i = N - 1; i-- > 0;) out = out * x + c[i];
  }

  // e^y for y in [-104, 89] (NaN passes through): y = n ln2 + r, and
  // 2^n applied in two factors so that subnormal results round once.
  static EMBER_XNN_INLINE void exp_bounded(const VF& y, VF& out) {
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

  static EMBER_XNN_INLINE void exp(const VF& x, VF& out) {
    VF y = x > 89.0f ? VF{} + 89.0f : x;
    y = y < -104.0f ? VF{} - 104.0f : y;
    exp_bounded(y, out);
  }

  // For a = |z| (or NaN): erf(a) below the split, erfc(a) from it on
  // (0 from kErfOne on); `small` says which.
  static EMBER_XNN_INLINE void erf_parts(const VF& a, VI& small, VF& out) {
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

  static EMBER_XNN_INLINE void erf(const VF& x, VF& out) {
    VF a, part;
    VI small;
    abs(x, a);
    erf_parts(a, small, part);
    copysign(small ? part : 1.0f - part, x, out);
  }

  static EMBER_XNN_INLINE void gelu(const VF& x, VF& out) {
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

  static EMBER_XNN_INLINE void tanh(const VF& x, VF& out) {
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
};

enum class Op { kErf, kGelu, kExp, kTanh };

template <typename VF, typename VI>
EMBER_XNN_INLINE void apply(Op op, const VF& x, VF& out) {
  using M = VMath<VF, VI>;
  switch (op) {
    case Op::kErf: M::erf(x, out); return;
    case Op::kGelu: M::gelu(x, out); return;
    case Op::kExp: M::exp(x, out); return;
    case Op::kTanh: M::tanh(x, out); return;
  }
}

// out[i] = op(in[i]), i < n, a vector at a time; the tail goes through a
// zero-padded vector. The switch is outside the loop so that each loop
// inlines one function.
template <typename VF, typename VI>
EMBER_XNN_INLINE void map(Op op, size_t n, const float* in, float* out) {
  constexpr size_t W = sizeof(VF) / sizeof(float);
  using M = VMath<VF, VI>;
  VF x{}, y{};
  size_t i = 0;
  switch (op) {
    case Op::kErf:
      for (; i + W <= n; i += W) load_vec(x, in + i), M::erf(x, y), store_vec(out + i, y);
      break;
    case Op::kGelu:
      for (; i + W <= n; i += W) load_vec(x, in + i), M::gelu(x, y), store_vec(out + i, y);
      break;
    case Op::kExp:
      for (; i + W <= n; i += W) load_vec(x, in + i), M::exp(x, y), store_vec(out + i, y);
      break;
    case Op::kTanh:
      for (; i + W <= n; i += W) load_vec(x, in + i), M::tanh(x, y), store_vec(out + i, y);
      break;
  }
  if (i < n) {
    float buf[W] = {};
    std::copy(in + i, in + n, buf);
    load_vec(x, buf);
    apply<VF, VI>(op, x, y);
    store_vec(buf, y);
    std::copy(buf, buf + (n - i), out + i);
  }
}

void map_baseline(Op op, size_t n, const float* in, float* out) {
  map<VecF4, VecI4>(op, n, in, out);
}
#if EMBER_XNN_X86_DISPATCH
EMBER_XNN_TARGET_AVX2 void map_avx2(Op op, size_t n, const float* in, float* out) {
  map<VecF8, VecI8>(op, n, in, out);
}
EMBER_XNN_TARGET_AVX512 void map_avx512(Op op, size_t n, const float* in, float* out) {
  map<VecF16, VecI16>(op, n, in, out);
}
#endif

void map_parallel(Op op, size_t n, const float* in, float* out, Isa isa) {
  struct Ctx {
    void (*fn)(Op, size_t, const float*, float*);
    Op op;
    size_t n;
    const float* in;
    float* out;
  } c{map_baseline, op, n, in, out};
#if EMBER_XNN_X86_DISPATCH
  if (isa == Isa::kAvx512) c.fn = map_avx512;
  if (isa == Isa::kAvx2) c.fn = map_avx2;
#endif
  (void)isa;
  parallel_for((n + kChunk - 1) / kChunk, [&c](size_t chunk) {
    const size_t begin = chunk * kChunk;
    c.fn(c.op, std::min(kChunk, c.n - begin), c.in + begin, c.out + begin);
  });
}

}  // namespace

void erf_f32(size_t n, const float* in, float* out, Isa isa) {
  map_parallel(Op::kErf, n, in, out, isa);
}
void gelu_f32(size_t n, const float* in, float* out, Isa isa) {
  map_parallel(Op::kGelu, n, in, out, isa);
}
void exp_f32(size_t n, const float* in, float* out, Isa isa) {
  map_parallel(Op::kExp, n, in, out, isa);
}
void tanh_f32(size_t n, const float* in, float* out, Isa isa) {
  map_parallel(Op::kTanh, n, in, out, isa);
}

}  // namespace ember::xnnpack
