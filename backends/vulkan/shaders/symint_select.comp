#version 450
// et_vk.select_as_symint: the SymInt slot takes element `index` of an
// int32 tensor (one invocation).
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer I { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  uint index;
} p;

void main() {
  if (ember_index() >= p.total) return;
  dst[0] = src[p.index];
}
