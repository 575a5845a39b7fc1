#version 450
// out[i] = a[i'] (op) b[i''] with broadcasting by strides; see
// ops/vk_op_binary.cpp for the codes and the push-constant layout.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;
  int code;
  uint rank;
  uint flags;
  float alpha;
  float scalar;
  uint sizes[8];
  uint a_strides[8];
  uint b_strides[8];
} p;

float load_a(uint i) { return (p.flags & 1u) != 0u ? float(floatBitsToInt(a[i])) : a[i]; }
float load_b(uint i) {
  if ((p.flags & 8u) != 0u) return p.scalar;
  return (p.flags & 2u) != 0u ? float(floatBitsToInt(b[i])) : b[i];
}

float apply(float x, float y) {
  switch (p.code) {
    case 0: return x + p.alpha * y;
    case 1: return x - p.alpha * y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return (isnan(x) || isnan(y)) ? x + y : min(x, y);
    case 5: return (isnan(x) || isnan(y)) ? x + y : max(x, y);
    case 6: return pow(x, y);
    case 7: return x == y ? 1.0 : 0.0;
    case 8: return x != y ? 1.0 : 0.0;
    case 9: return x < y ? 1.0 : 0.0;
    case 10: return x <= y ? 1.0 : 0.0;
    case 11: return x > y ? 1.0 : 0.0;
    case 12: return x >= y ? 1.0 : 0.0;
    case 13: return floor(x / y);
    case 14: return y - p.alpha * x;
    case 15: return (x != 0.0 && y != 0.0) ? 1.0 : 0.0;
    case 16: return (x != 0.0 || y != 0.0) ? 1.0 : 0.0;
  }
  return 0.0;
}

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint rest = i;
  uint ia = 0u;
  uint ib = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint c = rest % p.sizes[d];
    rest /= p.sizes[d];
    ia += c * p.a_strides[d];
    ib += c * p.b_strides[d];
  }
  float r = apply(load_a(ia), load_b(ib));
  o[i] = (p.flags & 4u) != 0u ? intBitsToFloat(int(r)) : r;
}
