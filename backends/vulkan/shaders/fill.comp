#version 450
// Writes every element of one tensor: a constant (full, zeros, ones, the
// border of a pad) or a range (arange). See ops/vk_op_gather.cpp.
#include "common.glsl"

layout(std430, set = 0, binding = 0) writeonly buffer O { float dst[]; };

layout(push_constant) uniform Push {
  uint total;
  uint mode;   // 0: the bits of `value`; 1: float start + i * step; 2: int
  uint value;  // bits of the constant, or of the start
  uint step;   // bits of the step
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  if (p.mode == 1u) {
    dst[i] = uintBitsToFloat(p.value) + float(i) * uintBitsToFloat(p.step);
  } else if (p.mode == 2u) {
    dst[i] = intBitsToFloat(int(p.value) + int(i) * int(p.step));
  } else {
    dst[i] = uintBitsToFloat(p.value);
  }
}
