#version 450
// Rows picked by an index tensor: out viewed as [outer, n, inner] reads
// src viewed as [outer, rows, inner] at row idx[j] (embedding: outer 1;
// index_select and a single-index index.Tensor along any dim). An index
// outside [-rows, rows) gives zeros; negative ones count from the end when
// flags bit 0 is set, else they too give zeros.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer S { float src[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float idx[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  uint inner;
  uint n;
  uint rows;
  uint flags;
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint k = i % p.inner;
  uint j = (i / p.inner) % p.n;
  uint o = i / (p.inner * p.n);
  int r = floatBitsToInt(idx[j]);
  if (r < 0 && (p.flags & 1u) != 0u) r += int(p.rows);
  if (r < 0 || r >= int(p.rows)) {
    dst[i] = intBitsToFloat(0);
    return;
  }
  dst[i] = src[(o * p.rows + uint(r)) * p.inner + k];
}
