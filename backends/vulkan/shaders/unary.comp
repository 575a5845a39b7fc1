#version 450
// out[i] = f(in[i]) for one elementwise operation chosen by a code: the
// activations, the maths functions and dtype conversions. See
// ops/vk_op_unary.cpp for the codes, the flags and the push constants.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  int code;
  uint flags;  // 1: in is int, 2: out is int, 4: out is bool, 8: out is half,
               // 16: lower bound set, 32: upper bound set
  uint pad;
  float a;     // first parameter (lower bound, slope, alpha, lambda)
  float b;     // second parameter (upper bound, scale)
  float c;     // third parameter (input scale)
  int ia;      // integer lower bound
  int ib;      // integer upper bound
} p;

const float kPi = 3.14159265358979;

// tanh without the overflow of (e^x - e^-x) / (e^x + e^-x) and with a
// series near zero, where 1 - e^-2|x| would cancel.
float safe_tanh(float x) {
  float ax = abs(x);
  if (ax < 0.125) {
    float x2 = x * x;
    return x * (1.0 + x2 * (-1.0 / 3.0 + x2 * (2.0 / 15.0 + x2 * (-17.0 / 315.0))));
  }
  float t = exp(-2.0 * ax);
  return sign(x) * (1.0 - t) / (1.0 + t);
}

// erfc(z) for z >= 0: the Chebyshev-fitted form of Numerical Recipes
// (relative error under 1.2e-7).
float erfc_pos(float z) {
  float t = 1.0 / (1.0 + 0.5 * z);
  float q = 0.17087277;
  q = q * t - 0.82215223;
  q = q * t + 1.48851587;
  q = q * t - 1.13520398;
  q = q * t + 0.27886807;
  q = q * t - 0.18628806;
  q = q * t + 0.09678418;
  q = q * t + 0.37409196;
  q = q * t + 1.00002368;
  q = q * t - 1.26551223;
  return t * exp(-z * z + q);
}

// erf to about 2e-7 absolute: the Maclaurin series below 0.8, above it
// 1 - erfc.
float erf_approx(float x) {
  float z = abs(x);
  if (z < 0.8) {
    float x2 = x * x;
    float s = -1.0 / 75600.0;
    s = s * x2 + 1.0 / 9360.0;
    s = s * x2 - 1.0 / 1320.0;
    s = s * x2 + 1.0 / 216.0;
    s = s * x2 - 1.0 / 42.0;
    s = s * x2 + 1.0 / 10.0;
    s = s * x2 - 1.0 / 3.0;
    s = s * x2 + 1.0;
    return 1.1283791670955126 * x * s;
  }
  if (z > 10.0) return sign(x);
  return sign(x) * (1.0 - erfc_pos(z));
}

// 1 + erf(x), without the cancellation of 1 - erfc for negative x.
float one_plus_erf(float x) {
  if (x <= -0.8) return x < -10.0 ? 0.0 : erfc_pos(-x);
  return 1.0 + erf_approx(x);
}

float sigmoid(float x) { return 1.0 / (1.0 + exp(-x)); }

float apply_float(float x) {
  switch (p.code) {
    case 0: return (x > 0.0 || isnan(x)) ? x : 0.0;                       // relu
    case 1: {                                                              // clamp
      if (isnan(x)) return x;
      float r = x;
      if ((p.flags & 16u) != 0u) r = r < p.a ? p.a : r;
      if ((p.flags & 32u) != 0u) r = r > p.b ? p.b : r;
      return r;
    }
    case 2: return sigmoid(x);
    case 3: return safe_tanh(x);
    case 4: return 0.5 * x * one_plus_erf(x * 0.70710678118654752);  // gelu
    case 5: {                                                              // gelu tanh
      float inner = 0.7978845608028654 * (x + 0.044715 * x * x * x);
      return 0.5 * x * (1.0 + safe_tanh(inner));
    }
    case 6: return x * sigmoid(x);                                         // silu
    case 7: return x * clamp(x + 3.0, 0.0, 6.0) / 6.0;                     // hardswish
    case 8: return clamp(x + 3.0, 0.0, 6.0) / 6.0;                         // hardsigmoid
    case 9: return x > 0.0 ? x : x * p.a;                                  // leaky_relu
    case 10: return x > 0.0 ? x * p.b : p.a * p.b * (exp(x * p.c) - 1.0);  // elu
    case 11: return exp(x);
    case 12: return log(x);
    case 13: return sqrt(x);
    case 14: return inversesqrt(x);
    case 15: return -x;
    case 16: return abs(x);
    case 17: return sin(x);
    case 18: return cos(x);
    case 19: return floor(x);
    case 20: return ceil(x);
    case 21: return roundEven(x);
    case 22: return isnan(x) ? x : sign(x);
    case 23: return 1.0 / x;
    case 24: return x;                                                     // convert
    case 25: return log(x) * 0.43429448190325182;                          // log10
    case 26: return (x >= -p.a && x <= p.a) ? 0.0 : x;                     // hardshrink
    case 27: return x == 0.0 ? 1.0 : 0.0;                                  // logical_not
    case 28: return trunc(x);
    case 29: return log(x) * 1.4426950408889634;                           // log2
    case 30: return x * x;                                                 // square
    case 31: return x == 0.0 ? 1.0 : 0.0;                                  // bitwise_not (bool)
  }
  return x;
}

int apply_int(int x) {
  switch (p.code) {
    case 0: return max(x, 0);
    case 1: {
      int r = x;
      if ((p.flags & 16u) != 0u) r = max(r, p.ia);
      if ((p.flags & 32u) != 0u) r = min(r, p.ib);
      return r;
    }
    case 15: return -x;
    case 16: return abs(x);
    case 22: return sign(x);
    case 27: return x == 0 ? 1 : 0;
    case 30: return x * x;
    case 31: return ~x;
  }
  return x;  // convert, and the rounding functions (identity on ints)
}

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  bool in_int = (p.flags & 1u) != 0u;
  bool out_int = (p.flags & 2u) != 0u;
  if (in_int && out_int) {
    int r = apply_int(floatBitsToInt(src[i]));
    if ((p.flags & 4u) != 0u) r = r != 0 ? 1 : 0;
    dst[i] = intBitsToFloat(r);
    return;
  }
  float x = in_int ? float(floatBitsToInt(src[i])) : src[i];
  float r = apply_float(x);
  if ((p.flags & 4u) != 0u) {
    dst[i] = intBitsToFloat(r != 0.0 ? 1 : 0);
  } else if (out_int) {
    dst[i] = intBitsToFloat(int(r));  // toward zero, like a C cast
  } else if ((p.flags & 8u) != 0u) {
    dst[i] = unpackHalf2x16(packHalf2x16(vec2(r, 0.0))).x;  // rounded to float16
  } else {
    dst[i] = r;
  }
}
