#version 450
// Attention of one query row over a KV cache (sdpa_with_kv_cache): one
// invocation per (batch, query position, head); keys 0 .. start + s
// (causal) or 0 .. start + seq - 1; grouped heads share a KV head
// (head / (heads / kv_heads)). Softmax in one pass with a running maximum.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Q { float q[]; };
layout(std430, set = 0, binding = 1) readonly buffer K { float kc[]; };
layout(std430, set = 0, binding = 2) readonly buffer V { float vc[]; };
layout(std430, set = 0, binding = 3) readonly buffer P { float start_pos[]; };
layout(std430, set = 0, binding = 4) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;  // batch * seq * heads
  uint seq;
  uint heads;
  uint kv_heads;
  uint head_dim;  // at most 256
  uint max_seq;
  float scale;
  uint causal;
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint h = i % p.heads;
  uint s = (i / p.heads) % p.seq;
  uint b = i / (p.heads * p.seq);
  uint kvh = h / (p.heads / p.kv_heads);
  int start = floatBitsToInt(start_pos[0]);
  int last = p.causal != 0u ? start + int(s) : start + int(p.seq) - 1;
  last = min(last, int(p.max_seq) - 1);
  uint qbase = ((b * p.seq + s) * p.heads + h) * p.head_dim;
  float acc[256];
  for (uint d = 0u; d < p.head_dim; ++d) acc[d] = 0.0;
  float running_max = -1.0 / 0.0;
  float denom = 0.0;
  for (int t = 0; t <= last; ++t) {
    uint kbase = ((b * p.max_seq + uint(t)) * p.kv_heads + kvh) * p.head_dim;
    float score = 0.0;
    for (uint d = 0u; d < p.head_dim; ++d) score += q[qbase + d] * kc[kbase + d];
    score *= p.scale;
    float new_max = max(running_max, score);
    float correction = exp(running_max - new_max);
    float w = exp(score - new_max);
    denom = denom * correction + w;
    for (uint d = 0u; d < p.head_dim; ++d) acc[d] = acc[d] * correction + w * vc[kbase + d];
    running_max = new_max;
  }
  for (uint d = 0u; d < p.head_dim; ++d) o[qbase + d] = denom > 0.0 ? acc[d] / denom : 0.0;
}
