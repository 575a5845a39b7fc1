#version 450
// Regular (not transposed) 2-D convolution whose output channels come in
// blocks of 4 within a group (groups == 1, or C_out/groups a multiple of
// 4): each invocation computes 4 output channels x 4 neighbouring output
// columns of one row, so that each input and weight load feeds 4 FMAs.
// Same push constants as conv2d.comp; the thread count is
// N * ceil(C_out/4) * OH * ceil(OW/4), columns fastest.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { float wt[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float bias[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;  // invocations
  uint flags;  // bit 0: bias, 2: clamp low, 3: clamp high
  uint c_in;
  uint h;
  uint w;
  uint c_out;
  uint oh;
  uint ow;
  uint kh;
  uint kw;
  uint groups;
  int stride_h;
  int stride_w;
  int pad_h;
  int pad_w;
  int dil_h;
  int dil_w;
  float out_min;
  float out_max;
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint ow_blocks = (p.ow + 3u) / 4u;
  uint oc_blocks = (p.c_out + 3u) / 4u;
  uint oxb = i % ow_blocks;
  uint t = i / ow_blocks;
  uint oy = t % p.oh;
  t /= p.oh;
  uint ocb = t % oc_blocks;
  uint n = t / oc_blocks;
  uint oc0 = ocb * 4u;
  uint ox0 = oxb * 4u;
  uint cin_g = p.c_in / p.groups;
  uint g = oc0 / (p.c_out / p.groups);
  int ih = int(p.h);
  int iw = int(p.w);
  uint khw = p.kh * p.kw;
  // Weight rows of the 4 channels (clamped: a missing channel repeats the
  // last one and is never written).
  uint wrow[4];
  for (uint c = 0u; c < 4u; ++c) wrow[c] = min(oc0 + c, p.c_out - 1u) * cin_g * khw;
  vec4 acc[4];  // acc[c][j]: channel oc0 + c, column ox0 + j
  for (uint c = 0u; c < 4u; ++c) acc[c] = vec4(0.0);
  int iy0 = int(oy) * p.stride_h - p.pad_h;
  ivec4 ix0 = (ivec4(ox0) + ivec4(0, 1, 2, 3)) * p.stride_w - p.pad_w;
  for (uint ic = 0u; ic < cin_g; ++ic) {
    uint xbase = (n * p.c_in + g * cin_g + ic) * p.h * p.w;
    uint wbase = ic * khw;
    for (uint ky = 0u; ky < p.kh; ++ky) {
      int iy = iy0 + int(ky) * p.dil_h;
      if (iy < 0 || iy >= ih) continue;
      uint xrow = xbase + uint(iy) * p.w;
      for (uint kx = 0u; kx < p.kw; ++kx) {
        ivec4 ix = ix0 + int(kx) * p.dil_w;
        bvec4 ok = bvec4(ix.x >= 0 && ix.x < iw, ix.y >= 0 && ix.y < iw,
                         ix.z >= 0 && ix.z < iw, ix.w >= 0 && ix.w < iw);
        uvec4 at = uvec4(clamp(ix, ivec4(0), ivec4(iw - 1))) + xrow;
        float x0 = x[at.x];
        float x1 = x[at.y];
        float x2 = x[at.z];
        float x3 = x[at.w];
        vec4 xv = vec4(ok.x ? x0 : 0.0, ok.y ? x1 : 0.0, ok.z ? x2 : 0.0, ok.w ? x3 : 0.0);
        uint k = wbase + ky * p.kw + kx;
        acc[0] += wt[wrow[0] + k] * xv;
        acc[1] += wt[wrow[1] + k] * xv;
        acc[2] += wt[wrow[2] + k] * xv;
        acc[3] += wt[wrow[3] + k] * xv;
      }
    }
  }
  for (uint c = 0u; c < 4u; ++c) {
    uint oc = oc0 + c;
    if (oc >= p.c_out) break;
    float b = (p.flags & 1u) != 0u ? bias[oc] : 0.0;
    uint obase = ((n * p.c_out + oc) * p.oh + oy) * p.ow;
    for (uint j = 0u; j < 4u; ++j) {
      if (ox0 + j >= p.ow) break;
      // Comparisons are false for NaN: a NaN result stays NaN, as in PyTorch.
      float r = acc[c][j] + b;
      if ((p.flags & 4u) != 0u && r < p.out_min) r = p.out_min;
      if ((p.flags & 8u) != 0u && r > p.out_max) r = p.out_max;
      o[obase + ox0 + j] = r;
    }
  }
}
