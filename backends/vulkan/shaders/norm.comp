#version 450
// Layer norm and RMS norm over the last `len` elements of each row (one
// invocation per row). Layer norm: mean, then the variance about it (two
// passes), rstd = 1 / sqrt(var + eps), out = (x - mean) * rstd * w + b, and
// the row's mean and rstd written when asked. RMS norm: rstd =
// 1 / sqrt(mean(x^2) + eps), out = x * rstd * w. Group norm: layer norm of
// each (sample, group) row of `len` = channels-per-group * hw elements,
// weight and bias per channel. See ops/vk_op_norm.cpp.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float bias[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 4) writeonly buffer M { float mean_out[]; };
layout(std430, set = 0, binding = 5) writeonly buffer R { float rstd_out[]; };

layout(push_constant) uniform Push {
  uint rows;
  uint len;
  float eps;
  uint flags;  // 1: weight, 2: bias, 4: write mean, 8: write rstd, 16: RMS norm,
               // 32: group norm
  uint groups;  // group norm: groups per sample
  uint hw;      // group norm: elements per channel
} p;

void main() {
  uint r = ember_index();
  if (r >= p.rows) return;
  uint base = r * p.len;
  bool rms = (p.flags & 16u) != 0u;
  float mean = 0.0;
  if (!rms) {
    float s = 0.0;
    for (uint j = 0u; j < p.len; ++j) s += x[base + j];
    mean = s / float(p.len);
  }
  float v = 0.0;
  for (uint j = 0u; j < p.len; ++j) {
    float d = x[base + j] - mean;
    v += d * d;
  }
  float rstd = 1.0 / sqrt(v / float(p.len) + p.eps);
  bool group = (p.flags & 32u) != 0u;
  uint channel0 = group ? (r % p.groups) * (p.len / p.hw) : 0u;
  for (uint j = 0u; j < p.len; ++j) {
    float y = (x[base + j] - mean) * rstd;
    uint c = group ? channel0 + j / p.hw : j;
    if ((p.flags & 1u) != 0u) y *= w[c];
    if ((p.flags & 2u) != 0u) y += bias[c];
    o[base + j] = y;
  }
  if ((p.flags & 4u) != 0u) mean_out[r] = mean;
  if ((p.flags & 8u) != 0u) rstd_out[r] = rstd;
}
