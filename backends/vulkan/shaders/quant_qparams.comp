#version 450
// torchao.choose_qparams_affine over contiguous blocks: block b is
// x[b * block, (b + 1) * block) (per token: the last dim; per tensor: all of
// it). One invocation per block, torchao's rules in fp32:
//   lo = min(min(x), 0), hi = max(max(x), 0)
//   ASYMMETRIC: scale = max((hi - lo) / (qmax - qmin), eps)
//               zp = clamp(qmin - roundEven(lo / scale), qmin, qmax)
//   SYMMETRIC:  scale = max(max(-lo, hi) / ((qmax - qmin) / 2), eps)
//   SYMMETRIC_NO_CLIPPING_ERR: scale = max(max(lo / qmin, hi / qmax), eps)
//   (symmetric zp = the constant sym_zp). A NaN in the block gives a NaN
// scale. The zero point is written as int32 (or as float when zp_float).
// See ops/vk_op_quant.cpp for the push-constant layout.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer S { float scale_out[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Z { float zp_out[]; };

layout(push_constant) uniform Push {
  uint blocks;
  uint block;
  int qmin;
  int qmax;
  float eps;
  uint mode;  // 0 asymmetric, 1 symmetric, 2 symmetric without clipping error
  int sym_zp;
  uint zp_float;
} p;

void main() {
  uint b = ember_index();
  if (b >= p.blocks) return;
  uint base = b * p.block;
  float mn = 0.0;  // min(x) and max(x) already clamped around 0
  float mx = 0.0;
  bool nan_seen = false;
  for (uint k = 0u; k < p.block; ++k) {
    float v = x[base + k];
    if (isnan(v)) nan_seen = true;
    mn = min(mn, v);
    mx = max(mx, v);
  }
  float scale;
  int zp;
  if (p.mode == 0u) {
    scale = (mx - mn) / float(p.qmax - p.qmin);
    scale = max(scale, p.eps);
    float z = float(p.qmin) - roundEven(mn / scale);
    zp = int(clamp(z, float(p.qmin), float(p.qmax)));
  } else {
    if (p.mode == 1u) {
      scale = max(-mn, mx) / (float(p.qmax - p.qmin) / 2.0);
    } else {
      float smin = mn / float(p.qmin);
      float smax = mx / float(p.qmax);
      scale = smin > smax ? smin : smax;
    }
    scale = max(scale, p.eps);
    zp = p.sym_zp;
  }
  if (nan_seen) {
    scale = uintBitsToFloat(0x7fc00000u);
    if (p.mode == 0u) zp = p.qmin;
  }
  scale_out[b] = scale;
  zp_out[b] = p.zp_float != 0u ? float(zp) : intBitsToFloat(zp);
}
