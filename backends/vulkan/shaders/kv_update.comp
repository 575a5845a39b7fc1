#version 450
// Writes a step's keys or values into a KV cache at the position held by a
// SymInt slot: cache[b, start + s, :] = src[b, s, :], rows of `row`
// elements; positions past the cache are not written (the builder's
// caller keeps start + seq within the cache, the runner checks it).
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer S { float src[]; };
layout(std430, set = 0, binding = 1) buffer C { float cache[]; };
layout(std430, set = 0, binding = 2) readonly buffer P { float start_pos[]; };

layout(push_constant) uniform Push {
  uint total;    // batch * seq * row
  uint seq;
  uint row;      // kv_heads * head_dim
  uint max_seq;  // the cache's length
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint e = i % p.row;
  uint s = (i / p.row) % p.seq;
  uint b = i / (p.row * p.seq);
  int start = floatBitsToInt(start_pos[0]);
  if (start < 0 || uint(start) + s >= p.max_seq) return;
  cache[(b * p.max_seq + uint(start) + s) * p.row + e] = src[i];
}
