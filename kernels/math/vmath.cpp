// Vectorized fp32 erf, GELU, exp, tanh and sigmoid (vmath.h).
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
//   sigmoid(x):            1 / (1 + exp(-x)).
//
// Splitting erf at 7/8 keeps both halves accurate in float: below it the
// polynomial's value stays under 0.79, above it the part computed with
// rounding error, exp(-a^2) R(a), stays under 0.22.
#include <algorithm>

#include "kernels/math/vmath.h"
#include "kernels/math/vmath_impl.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

constexpr size_t kChunk = 16384;  // elements per parallel task

enum class Op { kErf, kGelu, kExp, kTanh, kSigmoid };

template <typename VF, typename VI>
EMBER_MATH_INLINE void apply(Op op, const VF& x, VF& out) {
  using M = VMath<VF, VI>;
  switch (op) {
    case Op::kErf: M::erf(x, out); return;
    case Op::kGelu: M::gelu(x, out); return;
    case Op::kExp: M::exp(x, out); return;
    case Op::kTanh: M::tanh(x, out); return;
    case Op::kSigmoid: M::sigmoid(x, out); return;
  }
}

// out[i] = op(in[i]), i < n, a vector at a time; the tail goes through a
// zero-padded vector. The switch is outside the loop so that each loop
// inlines one function.
template <typename VF, typename VI>
EMBER_MATH_INLINE void map(Op op, size_t n, const float* in, float* out) {
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
    case Op::kSigmoid:
      for (; i + W <= n; i += W) load_vec(x, in + i), M::sigmoid(x, y), store_vec(out + i, y);
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
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void map_avx2(Op op, size_t n, const float* in, float* out) {
  map<VecF8, VecI8>(op, n, in, out);
}
EMBER_MATH_TARGET_AVX512 void map_avx512(Op op, size_t n, const float* in, float* out) {
  map<VecF16, VecI16>(op, n, in, out);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
// Two NEON registers per vector (isa.h).
void map_neon(Op op, size_t n, const float* in, float* out) { map<VecF8, VecI8>(op, n, in, out); }
#endif

void map_parallel(Op op, size_t n, const float* in, float* out, Isa isa) {
  struct Ctx {
    void (*fn)(Op, size_t, const float*, float*);
    Op op;
    size_t n;
    const float* in;
    float* out;
  } c{map_baseline, op, n, in, out};
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) c.fn = map_avx512;
  if (isa == Isa::kAvx2) c.fn = map_avx2;
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) c.fn = map_neon;
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
void sigmoid_f32(size_t n, const float* in, float* out, Isa isa) {
  map_parallel(Op::kSigmoid, n, in, out, isa);
}

}  // namespace ember::math
