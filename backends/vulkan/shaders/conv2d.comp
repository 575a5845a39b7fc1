#version 450
// 2-D convolution, regular or transposed, one invocation per output element
// (N, C_out, OH, OW), fp32 accumulation, an optional bias and an optional
// clamp (et_vk.conv_with_clamp). 1-D convolutions run as H == 1. See
// ops/vk_op_conv.cpp for the push-constant layout.
//   regular:    weight [C_out, C_in/groups, KH, KW]
//   transposed: weight [C_in, C_out/groups, KH, KW]
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { float wt[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float bias[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;
  uint flags;  // bit 0: bias, 1: transposed, 2: clamp low, 3: clamp high
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
  uint ox = i % p.ow;
  uint t = i / p.ow;
  uint oy = t % p.oh;
  t /= p.oh;
  uint oc = t % p.c_out;
  uint n = t / p.c_out;
  uint cin_g = p.c_in / p.groups;
  uint cout_g = p.c_out / p.groups;
  uint g = oc / cout_g;
  int ih = int(p.h);
  int iw = int(p.w);
  float acc = 0.0;
  if ((p.flags & 2u) == 0u) {
    int iy0 = int(oy) * p.stride_h - p.pad_h;
    int ix0 = int(ox) * p.stride_w - p.pad_w;
    for (uint ic = 0u; ic < cin_g; ++ic) {
      uint xbase = (n * p.c_in + g * cin_g + ic) * p.h * p.w;
      uint wbase = (oc * cin_g + ic) * p.kh * p.kw;
      for (uint ky = 0u; ky < p.kh; ++ky) {
        int iy = iy0 + int(ky) * p.dil_h;
        if (iy < 0 || iy >= ih) continue;
        for (uint kx = 0u; kx < p.kw; ++kx) {
          int ix = ix0 + int(kx) * p.dil_w;
          if (ix < 0 || ix >= iw) continue;
          acc += x[xbase + uint(iy) * p.w + uint(ix)] * wt[wbase + ky * p.kw + kx];
        }
      }
    }
  } else {
    // out[oy] gathers in[iy] where oy = iy * stride - pad + ky * dil.
    uint ocg = oc % cout_g;
    for (uint ic = 0u; ic < cin_g; ++ic) {
      uint ci = g * cin_g + ic;
      uint xbase = (n * p.c_in + ci) * p.h * p.w;
      uint wbase = (ci * cout_g + ocg) * p.kh * p.kw;
      for (uint ky = 0u; ky < p.kh; ++ky) {
        int ny = int(oy) + p.pad_h - int(ky) * p.dil_h;
        if (ny < 0 || ny % p.stride_h != 0) continue;
        int iy = ny / p.stride_h;
        if (iy >= ih) continue;
        for (uint kx = 0u; kx < p.kw; ++kx) {
          int nx = int(ox) + p.pad_w - int(kx) * p.dil_w;
          if (nx < 0 || nx % p.stride_w != 0) continue;
          int ix = nx / p.stride_w;
          if (ix >= iw) continue;
          acc += x[xbase + uint(iy) * p.w + uint(ix)] * wt[wbase + ky * p.kw + kx];
        }
      }
    }
  }
  if ((p.flags & 1u) != 0u) acc += bias[oc];
  // Comparisons are false for NaN: a NaN result stays NaN, as in PyTorch.
  if ((p.flags & 4u) != 0u && acc < p.out_min) acc = p.out_min;
  if ((p.flags & 8u) != 0u && acc > p.out_max) acc = p.out_max;
  o[i] = acc;
}
