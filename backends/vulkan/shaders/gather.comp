#version 450
// torch.gather: out[c] = src[c with c[dim] replaced by idx[c]], c over the
// index's (= the output's) sizes; src read by its own strides. An index
// outside [-size, size) gives zero; negative ones count from the end.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer S { float src[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float idx[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  uint rank;
  uint dim;
  uint dim_size;
  uint sizes[8];
  uint src_strides[8];
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  int r = floatBitsToInt(idx[i]);
  if (r < 0) r += int(p.dim_size);
  if (r < 0 || r >= int(p.dim_size)) {
    dst[i] = intBitsToFloat(0);
    return;
  }
  uint rest = i;
  uint s = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint c = rest % p.sizes[d];
    rest /= p.sizes[d];
    s += (uint(d) == p.dim ? uint(r) : c) * p.src_strides[d];
  }
  dst[i] = src[s];
}
