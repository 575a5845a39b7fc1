// Matrix products on a batched GEMM that reads each operand through
// (batch, row, column) strides, with an optional broadcast bias:
//   aten.linear.default(input [..., K], weight [N, K], bias [N] or null, out
//     [..., N]): the leading dims of the input are the rows;
//   aten.mm.default(a [M, K], b [K, N], out [M, N]);
//   aten.bmm.default(a [B, M, K], b [B, K, N], out [B, M, N]);
//   aten.addmm.default(bias, a [M, K], b [K, N], beta, alpha, out [M, N]):
//     beta * bias + alpha * a @ b, the bias broadcast to [M, N] (beta 0
//     ignores it, as PyTorch does).
// Float tensors only. Shaders: matmul.comp (one output per invocation) and
// matmul_tile4.comp (a 4x4 block per invocation), fp32 accumulation in k order.
#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/ops/vk_op_util.h"

namespace ember::vulkan {
namespace {

struct GemmPush {
  uint32_t total;
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t a_sb;
  uint32_t a_sm;
  uint32_t a_sk;
  uint32_t b_sb;
  uint32_t b_sk;
  uint32_t b_sn;
  uint32_t c_sb;
  uint32_t c_sm;
  uint32_t c_sn;
  uint32_t has_bias;
  float alpha;
  float beta;
};
static_assert(sizeof(GemmPush) == 64 && sizeof(GemmPush) <= kMaxPush, "push constants");

constexpr int64_t kMaxElems = int64_t(1) << 31;

Error check_float(const Builder& b, std::initializer_list<const TensorDesc*> ts) {
  for (const TensorDesc* t : ts) {
    if (t == nullptr) continue;
    if (!device_float(t->dtype)) return b.unsupported("a non-float tensor");
    if (t->numel >= kMaxElems) return b.unsupported("a tensor of 2^31 or more elements");
  }
  return Error::Ok;
}

// Adds the dispatch; `bias_arg` < 0: no bias. Products of 4 rows or more
// run on matmul_tile4 (a 4x4 block per invocation: 4-10x faster than one
// output per invocation on lavapipe); thinner ones (a classifier head's
// single row) on matmul.
Error add_gemm(Builder& b, const GemmPush& p, size_t a_arg, size_t b_arg, int bias_arg,
               size_t out_arg) {
  const int32_t bias_id = bias_arg < 0 ? b.arg_id(a_arg) : b.arg_id(size_t(bias_arg));
  if (p.M >= 4 && p.N > 0) {
    GemmPush t = p;
    const uint64_t batch = p.total / (uint64_t(p.M) * p.N);
    t.total = uint32_t(batch * ((p.M + 3) / 4) * ((p.N + 3) / 4));
    return b.dispatch("matmul_tile4",
                      {b.arg_id(a_arg), b.arg_id(b_arg), bias_id, b.arg_id(out_arg)}, &t,
                      sizeof(t), uint64_t(t.total));
  }
  return b.dispatch("matmul", {b.arg_id(a_arg), b.arg_id(b_arg), bias_id, b.arg_id(out_arg)},
                    &p, sizeof(p), uint64_t(p.total));
}

// aten.linear.default(input, weight, bias?, out)
Error build_linear(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* in = nullptr;
  const TensorDesc* w = nullptr;
  const TensorDesc* bias = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &w));
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &bias));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  EMBER_RETURN_IF_ERROR(check_float(b, {in, w, bias, out}));
  if (in->rank < 1) return b.invalid("a 0-d input");
  if (w->rank != 2) return b.invalid("a weight that is not 2-d [N, K]");
  const int64_t K = in->sizes[in->rank - 1];
  const int64_t N = w->sizes[0];
  if (w->sizes[1] != K) return b.invalid("weight columns that differ from the input's last dim");
  const char* wrong_out = "an output shape other than [..., N]";
  int64_t M = 1;  // the input's leading dims
  int64_t MN = 0;
  EMBER_RETURN_IF_ERROR(checked_product(b, in->sizes, in->rank - 1, wrong_out, &M));
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, M, N, wrong_out, &MN));
  if (out->numel != MN || (out->rank > 0 && out->sizes[out->rank - 1] != N)) {
    return b.invalid(wrong_out);
  }
  if (bias != nullptr && (bias->numel != N || (bias->rank > 0 && bias->sizes[bias->rank - 1] != N))) {
    return b.invalid("a bias that is not [N]");
  }
  GemmPush p{};
  p.total = uint32_t(MN);
  p.M = uint32_t(M);
  p.N = uint32_t(N);
  p.K = uint32_t(K);
  p.a_sm = uint32_t(K);
  p.a_sk = 1;
  p.b_sk = 1;
  p.b_sn = uint32_t(K);
  p.c_sn = 1;
  p.has_bias = bias != nullptr ? 1u : 0u;
  p.alpha = 1.0f;
  p.beta = 1.0f;
  return add_gemm(b, p, 0, 1, bias != nullptr ? 2 : -1, b.num_args() - 1);
}

// The common part of mm / bmm / addmm: a [batch?, M, K] @ b [batch?, K, N].
Error plan_product(const Builder& b, const TensorDesc& a, const TensorDesc& m2,
                   const TensorDesc& out, uint32_t rank, GemmPush* p) {
  if (a.rank != rank || m2.rank != rank || out.rank != rank) {
    return b.invalid(rank == 2 ? "operands that are not 2-d" : "operands that are not 3-d");
  }
  const uint32_t o = rank - 2;  // the batch dims before the matrix
  const int64_t batch = rank == 3 ? a.sizes[0] : 1;
  const int64_t M = a.sizes[o];
  const int64_t K = a.sizes[o + 1];
  const int64_t N = m2.sizes[o + 1];
  if (m2.sizes[o] != K) return b.invalid("inner dims that differ");
  if (rank == 3 && (m2.sizes[0] != batch || out.sizes[0] != batch)) {
    return b.invalid("batch sizes that differ");
  }
  if (out.sizes[o] != M || out.sizes[o + 1] != N) return b.invalid("an output of another shape");
  // Each a product of one tensor's dims, checked all the same (with an
  // empty dim the others are not bounded together).
  const char* too_large = "operands too large";
  const int64_t total_f[3] = {batch, M, N};
  int64_t total = 0, a_sb = 0, b_sb = 0;
  EMBER_RETURN_IF_ERROR(checked_product(b, total_f, 3, too_large, &total));
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, M, K, too_large, &a_sb));
  EMBER_RETURN_IF_ERROR(mul_or_fail(b, K, N, too_large, &b_sb));
  p->total = uint32_t(total);
  p->M = uint32_t(M);
  p->N = uint32_t(N);
  p->K = uint32_t(K);
  p->a_sb = uint32_t(a_sb);
  p->a_sm = uint32_t(K);
  p->a_sk = 1;
  p->b_sb = uint32_t(b_sb);
  p->b_sk = uint32_t(N);
  p->b_sn = 1;
  p->alpha = 1.0f;
  p->beta = 1.0f;
  return Error::Ok;
}

// aten.mm.default(a, b, out) and aten.bmm.default(a, b, out)
Error build_mm_rank(Builder& b, uint32_t rank) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* a = nullptr;
  const TensorDesc* m2 = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &a));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &m2));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  EMBER_RETURN_IF_ERROR(check_float(b, {a, m2, out}));
  GemmPush p{};
  EMBER_RETURN_IF_ERROR(plan_product(b, *a, *m2, *out, rank, &p));
  return add_gemm(b, p, 0, 1, -1, b.num_args() - 1);
}

Error build_mm(Builder& b) { return build_mm_rank(b, 2); }
Error build_bmm(Builder& b) { return build_mm_rank(b, 3); }

// aten.addmm.default(bias, a, b, beta, alpha, out)
Error build_addmm(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(6));
  const TensorDesc* bias = nullptr;
  const TensorDesc* a = nullptr;
  const TensorDesc* m2 = nullptr;
  const TensorDesc* out = nullptr;
  double beta = 1;
  double alpha = 1;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &bias));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &a));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &m2));
  if (!b.is_null(3)) EMBER_RETURN_IF_ERROR(b.double_arg(3, &beta));
  if (!b.is_null(4)) EMBER_RETURN_IF_ERROR(b.double_arg(4, &alpha));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  EMBER_RETURN_IF_ERROR(check_float(b, {bias, a, m2, out}));
  GemmPush p{};
  EMBER_RETURN_IF_ERROR(plan_product(b, *a, *m2, *out, 2, &p));
  uint32_t strides[kMaxRank] = {};
  EMBER_RETURN_IF_ERROR(broadcast_strides(b, *bias, *out, strides));
  p.c_sm = strides[0];
  p.c_sn = strides[1];
  p.alpha = to_float(alpha);
  p.beta = to_float(beta);
  p.has_bias = beta != 0.0 ? 1u : 0u;
  return add_gemm(b, p, 1, 2, p.has_bias != 0u ? 0 : -1, b.num_args() - 1);
}

const OpEntry kRows[] = {
    {"aten.linear.default", build_linear},
    {"aten.mm.default", build_mm},
    {"aten.bmm.default", build_bmm},
    {"aten.addmm.default", build_addmm},
};

}  // namespace

OpFamily matmul_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
