#version 450
// 2-D max and average pooling over (planes = N*C, H, W), one invocation per
// output element. Max: NaN propagates and the index (flat, into the H*W
// plane) is PyTorch's: the first in-window element to start, then any
// greater value or NaN. Average: PyTorch's divisor rules (count_include_pad,
// divisor_override; the window clipped to the padded input first). See
// ops/vk_op_pool.cpp for the push-constant layout.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer X { float idx[]; };

layout(push_constant) uniform Push {
  uint total;
  uint flags;  // bit 0: average (else max), 1: write indices, 2: count_include_pad
  uint h;
  uint w;
  uint oh;
  uint ow;
  int kh;
  int kw;
  int stride_h;
  int stride_w;
  int pad_h;
  int pad_w;
  int dil_h;
  int dil_w;
  int divisor;  // 0: none
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint ox = i % p.ow;
  uint t = i / p.ow;
  uint oy = t % p.oh;
  uint plane = t / p.oh;
  int ih = int(p.h);
  int iw = int(p.w);
  uint base = plane * p.h * p.w;
  int y0 = int(oy) * p.stride_h - p.pad_h;
  int x0 = int(ox) * p.stride_w - p.pad_w;
  if ((p.flags & 1u) != 0u) {
    int y1 = min(y0 + p.kh, ih + p.pad_h);
    int x1 = min(x0 + p.kw, iw + p.pad_w);
    int pool_size = (y1 - y0) * (x1 - x0);
    y0 = max(y0, 0);
    x0 = max(x0, 0);
    y1 = min(y1, ih);
    x1 = min(x1, iw);
    if (y0 >= y1 || x0 >= x1) {
      o[i] = 0.0;
      return;
    }
    float sum = 0.0;
    for (int y = y0; y < y1; ++y) {
      for (int xx = x0; xx < x1; ++xx) sum += x[base + uint(y * iw + xx)];
    }
    int div = p.divisor != 0 ? p.divisor
              : ((p.flags & 4u) != 0u ? pool_size : (y1 - y0) * (x1 - x0));
    o[i] = sum / float(div);
    return;
  }
  while (y0 < 0) y0 += p.dil_h;
  while (x0 < 0) x0 += p.dil_w;
  int y_end = min(int(oy) * p.stride_h - p.pad_h + (p.kh - 1) * p.dil_h + 1, ih);
  int x_end = min(int(ox) * p.stride_w - p.pad_w + (p.kw - 1) * p.dil_w + 1, iw);
  int best_i = y0 * iw + x0;
  float best = uintBitsToFloat(0xff800000u);  // -inf
  for (int y = y0; y < y_end; y += p.dil_h) {
    for (int xx = x0; xx < x_end; xx += p.dil_w) {
      int k = y * iw + xx;
      float v = x[base + uint(k)];
      if (v > best || isnan(v)) {
        best = v;
        best_i = k;
      }
    }
  }
  o[i] = best;
  if ((p.flags & 2u) != 0u) idx[i] = intBitsToFloat(best_i);
}
