#version 450
// The GEMM of matmul.comp with a 4x4 block of outputs per invocation (four
// rows of A and four columns of B read once per k for sixteen products):
// fewer loads per product on a CPU device such as lavapipe. Rows and
// columns past the matrix edge are read clamped and not written. Same
// push constants as matmul.comp, `total` counting blocks.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float bm[]; };
layout(std430, set = 0, binding = 2) readonly buffer C { float c[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { float o[]; };

layout(push_constant) uniform Push {
  uint total;  // batch * ceil(M / 4) * ceil(N / 4)
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
  uint nb = (p.N + 3u) / 4u;
  uint mb = (p.M + 3u) / 4u;
  uint n0 = (i % nb) * 4u;
  uint m0 = ((i / nb) % mb) * 4u;
  uint batch = i / (nb * mb);
  uint ia[4];
  uint ib[4];
  for (uint r = 0u; r < 4u; ++r) {
    ia[r] = batch * p.a_sb + min(m0 + r, p.M - 1u) * p.a_sm;
    ib[r] = batch * p.b_sb + min(n0 + r, p.N - 1u) * p.b_sn;
  }
  vec4 acc0 = vec4(0.0);
  vec4 acc1 = vec4(0.0);
  vec4 acc2 = vec4(0.0);
  vec4 acc3 = vec4(0.0);
  for (uint k = 0u; k < p.K; ++k) {
    uint ka = k * p.a_sk;
    uint kb = k * p.b_sk;
    vec4 bv = vec4(bm[ib[0] + kb], bm[ib[1] + kb], bm[ib[2] + kb], bm[ib[3] + kb]);
    acc0 += a[ia[0] + ka] * bv;
    acc1 += a[ia[1] + ka] * bv;
    acc2 += a[ia[2] + ka] * bv;
    acc3 += a[ia[3] + ka] * bv;
  }
  vec4 accs[4] = vec4[4](acc0, acc1, acc2, acc3);
  for (uint r = 0u; r < 4u; ++r) {
    uint m = m0 + r;
    if (m >= p.M) break;
    for (uint q = 0u; q < 4u; ++q) {
      uint n = n0 + q;
      if (n >= p.N) break;
      float v = p.alpha * accs[r][q];
      if (p.has_bias != 0u) v += p.beta * c[batch * p.c_sb + m * p.c_sm + n * p.c_sn];
      o[(batch * p.M + m) * p.N + n] = v;
    }
  }
}
