// Small vector helpers shared by the kernels of this library (internal):
// loads of every other float, even/odd lane splits, partial stores, and
// horizontal sums and maxima in a fixed lane order. Instantiated per ISA
// by the functions that call them, like everything on the vector types of
// isa.h.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/isa.h"

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define EMBER_MATH_HAVE_SHUFFLE 1
#endif
#endif

namespace ember::math {

// The even lanes of the concatenation a:b.
#ifdef EMBER_MATH_HAVE_SHUFFLE
EMBER_MATH_INLINE void even_lanes(const VecF4& a, const VecF4& b, VecF4& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6);
}
EMBER_MATH_INLINE void even_lanes(const VecF8& a, const VecF8& b, VecF8& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
}
EMBER_MATH_INLINE void even_lanes(const VecF16& a, const VecF16& b, VecF16& out) {
  out = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
}
// The odd lanes of a:b.
EMBER_MATH_INLINE void odd_lanes(const VecF4& a, const VecF4& b, VecF4& out) {
  out = __builtin_shufflevector(a, b, 1, 3, 5, 7);
}
EMBER_MATH_INLINE void odd_lanes(const VecF8& a, const VecF8& b, VecF8& out) {
  out = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
}
EMBER_MATH_INLINE void odd_lanes(const VecF16& a, const VecF16& b, VecF16& out) {
  out = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}
#else
template <typename V>
EMBER_MATH_INLINE void even_lanes(const V& a, const V& b, V& out) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  for (size_t i = 0; i < W / 2; ++i) out[i] = a[2 * i], out[i + W / 2] = b[2 * i];
}
template <typename V>
EMBER_MATH_INLINE void odd_lanes(const V& a, const V& b, V& out) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  for (size_t i = 0; i < W / 2; ++i) out[i] = a[2 * i + 1], out[i + W / 2] = b[2 * i + 1];
}
#endif

// The floats at p, p + stride, ... (stride 1 or 2; stride 2 reads 2W).
template <typename V>
EMBER_MATH_INLINE void load_strided(const float* p, size_t stride, V& out) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  if (stride == 1) return load_vec(out, p);
  V a, b;
  load_vec(a, p);
  load_vec(b, p + W);
  even_lanes(a, b, out);
}

// The first `count` lanes of v to p (all of them when count >= W).
template <typename V>
EMBER_MATH_INLINE void store_first(float* p, const V& v, size_t count) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  if (count >= W) return store_vec(p, v);
  float part[W];
  store_vec(part, v);
  for (size_t i = 0; i < count; ++i) p[i] = part[i];
}

// Lanes added in order, from lane 0.
template <typename V>
EMBER_MATH_INLINE float lane_sum(const V& v) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  float s = 0.0f;
  for (size_t i = 0; i < W; ++i) s += v[i];
  return s;
}

// The lane sums of four vectors at once, out[i] the sum of si's lanes:
// pairs of neighbouring lanes are added level by level (a fixed tree,
// the same on every run), the four vectors sharing each shuffle. Cheaper
// than four lane_sum calls, which add the lanes one after another.
template <typename V>
EMBER_MATH_INLINE void lane_sums4(const V& s0, const V& s1, const V& s2, const V& s3,
                                  float out[4]) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  static_assert(W >= 4, "four sums need four lanes");
  V e, o;
  even_lanes(s0, s1, e);
  odd_lanes(s0, s1, o);
  const V a = e + o;  // halves: pair sums of s0, then of s1
  even_lanes(s2, s3, e);
  odd_lanes(s2, s3, o);
  const V b = e + o;
  even_lanes(a, b, e);
  odd_lanes(a, b, o);
  V c = e + o;  // quarters: W / 4 partial sums of s0, s1, s2, s3
  for (size_t group = W / 4; group > 1; group /= 2) {
    even_lanes(c, c, e);
    odd_lanes(c, c, o);
    c = e + o;  // the first four groups halve, in order
  }
  for (size_t i = 0; i < 4; ++i) out[i] = c[i];
}

// The largest lane, or a NaN lane if there is one.
template <typename V>
EMBER_MATH_INLINE float lane_max(const V& v) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  float m = v[0];
  for (size_t i = 1; i < W; ++i) m = v[i] > m || std::isnan(v[i]) ? v[i] : m;
  return m;
}

}  // namespace ember::math
