#version 450
// out[i] = in[base + sum_d coord_d(i) * in_strides[d]], coord over the
// output's sizes: contiguous copies, views, permutes, slices, selects,
// expands and one input of a concatenation (written at an output offset).
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float src[]; };
layout(std430, set = 0, binding = 1) buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  uint rank;
  uint in_base;
  uint out_base;
  uint sizes[8];
  uint in_strides[8];
  uint out_strides[8];
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint rest = i;
  uint si = p.in_base;
  uint di = p.out_base;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint c = rest % p.sizes[d];
    rest /= p.sizes[d];
    si += c * p.in_strides[d];
    di += c * p.out_strides[d];
  }
  dst[di] = src[si];
}
