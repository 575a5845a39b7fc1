#version 450
// out[i] = cond[i'] != 0 ? a[i''] : b[i'''], each operand broadcast by its
// strides over the output's sizes (at most 6 dims, leading 1s dropped).
// See ops/vk_op_gather.cpp.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer C { float cond[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;
  uint rank;
  uint flags;  // 1: a is int, 2: b is int, 4: out is int, 8: cond is float
  uint pad;
  uint sizes[6];
  uint c_strides[6];
  uint a_strides[6];
  uint b_strides[6];
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint rest = i;
  uint ic = 0u;
  uint ia = 0u;
  uint ib = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint c = rest % p.sizes[d];
    rest /= p.sizes[d];
    ic += c * p.c_strides[d];
    ia += c * p.a_strides[d];
    ib += c * p.b_strides[d];
  }
  bool take_a = (p.flags & 8u) != 0u ? cond[ic] != 0.0 : floatBitsToInt(cond[ic]) != 0;
  bool from_int = take_a ? (p.flags & 1u) != 0u : (p.flags & 2u) != 0u;
  float bits = take_a ? a[ia] : b[ib];
  bool out_int = (p.flags & 4u) != 0u;
  if (from_int == out_int) {
    o[i] = bits;  // the same kind: the bits as they are
  } else if (out_int) {
    o[i] = intBitsToFloat(int(bits));
  } else {
    o[i] = float(floatBitsToInt(bits));
  }
}
