#version 450
// Softmax / log-softmax along one dim: one invocation per row (an outer
// and an inner index; the row is `len` elements `inner` apart). Max first,
// then the sum of exp(x - max), then the outputs. A NaN in the row makes
// the row NaN. See ops/vk_op_norm.cpp.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint rows;  // outer * inner
  uint len;
  uint inner;
  uint log_softmax;
} p;

void main() {
  uint r = ember_index();
  if (r >= p.rows) return;
  uint base = (r / p.inner) * p.len * p.inner + r % p.inner;
  float m = -1.0 / 0.0;
  for (uint j = 0u; j < p.len; ++j) {
    float v = x[base + j * p.inner];
    if (v > m || isnan(v)) m = v;
    if (isnan(m)) break;
  }
  float s = 0.0;
  for (uint j = 0u; j < p.len; ++j) s += exp(x[base + j * p.inner] - m);
  if (p.log_softmax != 0u) {
    float shift = m + log(s);
    for (uint j = 0u; j < p.len; ++j) o[base + j * p.inner] = x[base + j * p.inner] - shift;
  } else {
    float inv = 1.0 / s;
    for (uint j = 0u; j < p.len; ++j) o[base + j * p.inner] = exp(x[base + j * p.inner] - m) * inv;
  }
}
