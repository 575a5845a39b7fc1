#version 450
// Reductions over any set of dims of a contiguous input: one invocation
// per output element (indexed over the input's shape with the reduced dims
// taken as size 1), a loop over the `count` reduced elements. Codes: 0 sum,
// 1 mean, 2 amax, 3 amin (a NaN wins), 4 argmax, 5 argmin (the first
// index of the extreme, a NaN's if any; written as int32). See
// ops/vk_op_reduce.cpp.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;
  uint rank;
  uint count;  // elements reduced into each output
  uint code;
  uint mask;   // bit d: dim d is reduced
  uint sizes[8];
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  // The input offset of the output's first element, and the strides.
  uint strides[8];
  uint stride = 1u;
  uint rest = i;
  uint base = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    strides[d] = stride;
    if ((p.mask & (1u << uint(d))) == 0u) {
      uint c = rest % p.sizes[d];
      rest /= p.sizes[d];
      base += c * stride;
    }
    stride *= p.sizes[d];
  }
  float acc = p.code == 2u ? -1.0 / 0.0 : (p.code == 3u ? 1.0 / 0.0 : 0.0);
  uint best = 0u;
  for (uint r = 0u; r < p.count; ++r) {
    uint off = base;
    uint q = r;
    for (int d = int(p.rank) - 1; d >= 0; --d) {
      if ((p.mask & (1u << uint(d))) != 0u) {
        off += (q % p.sizes[d]) * strides[d];
        q /= p.sizes[d];
      }
    }
    float v = x[off];
    if (p.code <= 1u) {
      acc += v;
    } else if (p.code >= 4u) {
      bool take = r == 0u || (isnan(v) && !isnan(acc));
      if (!isnan(acc) && !isnan(v)) take = take || (p.code == 4u ? v > acc : v < acc);
      if (take) {
        acc = v;
        best = r;
      }
    } else if (isnan(v) || isnan(acc)) {
      acc = isnan(acc) ? acc : v;
    } else {
      acc = p.code == 2u ? max(acc, v) : min(acc, v);
    }
  }
  if (p.code == 1u) acc /= float(p.count);
  o[i] = p.code >= 4u ? intBitsToFloat(int(best)) : acc;
}
