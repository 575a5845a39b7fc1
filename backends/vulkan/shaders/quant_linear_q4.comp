#version 450
// Linear with 4-bit group-quantized weights (et_vk.linear_q4gsw,
// et_vk.linear_dq8ca_q4gsw): out[m, n] = sum_g scale_w[g, n] * sum_{k in g}
// a[m, k] * w[n, k] + bias[n], where
//   w[n, k] = nibble k of row n of the packed weights - 8 (the low nibble of
//     byte k / 2 for even k, the high one for odd k; bytes are int32 here);
//   a[m, k] = x[m, k] (weight only), or with dynamic int8 activations
//     (quant_input) the int8 value q - zp, q = clamp(roundEven(x * (1 /
//     s)) + zp, qmin, qmax), s and zp the row's (or the tensor's) qparams:
//     the group's integer dot product times s * scale_w[g, n].
// One invocation per output element, fp32 (int32 per group) accumulation.
// See ops/vk_op_quant.cpp for the push-constant layout.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer IS { float in_scale[]; };
layout(std430, set = 0, binding = 2) readonly buffer IZ { float in_zp[]; };
layout(std430, set = 0, binding = 3) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 4) readonly buffer WS { float w_scale[]; };
layout(std430, set = 0, binding = 5) readonly buffer B { float bias[]; };
layout(std430, set = 0, binding = 6) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;       // M * N
  uint N;
  uint groups;      // K = groups * group_size
  uint group_size;
  uint w_stride;    // bytes per packed weight row (>= K / 2)
  uint s_stride;    // columns of the [groups, N'] scales (N' >= N)
  uint has_bias;
  uint quant_input;
  int qmin;
  int qmax;
  uint q_stride;    // 1: qparams per row, 0: one for the tensor
  uint zp_float;
} p;

int weight_at(uint row, uint k) {
  int byte = floatBitsToInt(w[row + (k >> 1)]);
  return (((k & 1u) != 0u ? (byte >> 4) : byte) & 15) - 8;
}

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint n = i % p.N;
  uint m = i / p.N;
  uint K = p.groups * p.group_size;
  uint xrow = m * K;
  uint wrow = n * p.w_stride;
  float acc = 0.0;
  if (p.quant_input != 0u) {
    float s = in_scale[m * p.q_stride];
    float zv = in_zp[m * p.q_stride];
    int zp = p.zp_float != 0u ? int(zv) : floatBitsToInt(zv);
    float inv = 1.0 / s;
    float lo = float(p.qmin);
    float hi = float(p.qmax);
    uint k = 0u;
    for (uint g = 0u; g < p.groups; ++g) {
      int dot = 0;
      for (uint e = 0u; e < p.group_size; ++e, ++k) {
        float q = clamp(roundEven(x[xrow + k] * inv) + float(zp), lo, hi);
        dot += (int(q) - zp) * weight_at(wrow, k);
      }
      acc += float(dot) * (s * w_scale[g * p.s_stride + n]);
    }
  } else {
    uint k = 0u;
    for (uint g = 0u; g < p.groups; ++g) {
      float part = 0.0;
      for (uint e = 0u; e < p.group_size; ++e, ++k) {
        part += x[xrow + k] * float(weight_at(wrow, k));
      }
      acc += part * w_scale[g * p.s_stride + n];
    }
  }
  if (p.has_bias != 0u) acc += bias[n];
  o[i] = acc;
}
