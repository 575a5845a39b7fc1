#version 450
// Batched matrix product with an optional broadcast bias:
//   out[b, m, n] = alpha * sum_k A[b, m, k] * B[b, k, n] + beta * C[b, m, n]
// where every operand is read through its own (batch, row, column) strides
// (B as a [N, K] weight of linear is B with k stride 1 and n stride K; a
// broadcast operand has stride 0). One invocation per output element, fp32
// accumulation. See ops/vk_op_matmul.cpp for the push-constant layout.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float bm[]; };
layout(std430, set = 0, binding = 2) readonly buffer C { float c[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;  // batch * M * N
  uint M;
  uint N;
  uint K;
  uint a_sb;
  uint a_sm;
  uint a_sk;
  uint b_sb;
  uint b_sk;
  uint b_sn;
  uint c_sb;
  uint c_sm;
  uint c_sn;
  uint has_bias;
  float alpha;
  float beta;
} p;

void main() {
  uint i = ember_index();
  if (i >= p.total) return;
  uint n = i % p.N;
  uint m = (i / p.N) % p.M;
  uint batch = i / (p.N * p.M);
  uint ia = batch * p.a_sb + m * p.a_sm;
  uint ib = batch * p.b_sb + n * p.b_sn;
  float acc = 0.0;
  for (uint k = 0u; k < p.K; ++k) {
    acc += a[ia] * bm[ib];
    ia += p.a_sk;
    ib += p.b_sk;
  }
  float r = p.alpha * acc;
  if (p.has_bias != 0u) r += p.beta * c[batch * p.c_sb + m * p.c_sm + n * p.c_sn];
  o[i] = r;
}
