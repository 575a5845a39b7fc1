#version 450
// Rotary embedding on interleaved pairs (et_vk.apply_rotary_emb, Llama's
// layout): for x[b, s, h, 2k], x[b, s, h, 2k+1] and c = cos[s, k],
// n = sin[s, k]: out = (x0 c - x1 n, x0 n + x1 c). One invocation per pair.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { float fcos[]; };
layout(std430, set = 0, binding = 2) readonly buffer N { float fsin[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;  // batch * seq * heads * head_dim / 2
  uint seq;
  uint heads;
  uint half_dim;
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint k = i % p.half_dim;
  uint s = (i / (p.half_dim * p.heads)) % p.seq;
  float c = fcos[s * p.half_dim + k];
  float n = fsin[s * p.half_dim + k];
  float x0 = x[2u * i];
  float x1 = x[2u * i + 1u];
  o[2u * i] = x0 * c - x1 * n;
  o[2u * i + 1u] = x0 * n + x1 * c;
}
