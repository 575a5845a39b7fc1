// The operators of upstream's Vulkan-lowered Llama (export_llama -V
// --use_kv_cache --use_sdpa_with_kv_cache):
//   et_vk.select_as_symint(x, dim, index) -> SymInt: an element of a 1-d
//     int tensor (the input position) into a SymInt slot, on the device;
//   sdpa_with_kv_cache(q, k, v, k_cache, v_cache, start_pos, seq_len,
//     attn_mask, dropout_p, is_causal, scale, out): k and v written into
//     the caches at start_pos, then attention of q over the cache (causal,
//     grouped heads); the caches are constants of the graph (they persist
//     across calls: the executable gives each its own memory);
//   et_vk.apply_rotary_emb(xq, xk, freqs_cos, freqs_sin) -> (xq', xk').
// Tensors are [batch, seq, heads, head_dim], caches [batch, max_seq,
// kv_heads, head_dim], frequencies [seq, head_dim / 2].
#include <cmath>

#include "backends/vulkan/ops/vk_op_util.h"
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

struct SelectPush {
  uint32_t total;
  uint32_t index;
};

struct KvPush {
  uint32_t total;
  uint32_t seq;
  uint32_t row;
  uint32_t max_seq;
};

struct SdpaPush {
  uint32_t total;
  uint32_t seq;
  uint32_t heads;
  uint32_t kv_heads;
  uint32_t head_dim;
  uint32_t max_seq;
  float scale;
  uint32_t causal;
};

struct RopePush {
  uint32_t total;
  uint32_t seq;
  uint32_t heads;
  uint32_t half_dim;
};

constexpr int64_t kMaxHeadDim = 256;  // shaders/sdpa.comp's accumulator

Error build_select_as_symint(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(4));
  const TensorDesc* x = nullptr;
  int64_t dim = 0;
  int64_t index = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &x));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  EMBER_RETURN_IF_ERROR(b.int_arg(2, &index));
  if (b.value(b.arg_id(3)).kind != ValueKind::SymInt) return b.invalid("the result is not a SymInt");
  if (x->rank != 1 || device_float(x->dtype)) return b.unsupported("a source other than a 1-d int tensor");
  if (dim != 0 && dim != -1) return b.invalid("dim outside a 1-d tensor");
  if (index < 0) index += x->sizes[0];
  if (index < 0 || index >= x->sizes[0]) return b.invalid("index outside the tensor");
  SelectPush p{1, uint32_t(index)};
  return b.dispatch("symint_select", {b.arg_id(0), b.arg_id(3)}, &p, sizeof(p), 1);
}

// The shapes sdpa_with_kv_cache needs, checked.
Error check_sdpa_shapes(const Builder& b, const TensorDesc& q, const TensorDesc& k,
                        const TensorDesc& v, const TensorDesc& kc, const TensorDesc& vc,
                        const TensorDesc& out) {
  for (const TensorDesc* t : {&q, &k, &v, &kc, &vc, &out}) {
    if (t->rank != 4 || !device_float(t->dtype)) return b.unsupported("tensors other than 4-d float");
  }
  const bool kv_same = k.sizes[0] == q.sizes[0] && k.sizes[1] == q.sizes[1] &&
                       k.sizes[3] == q.sizes[3];
  for (int d = 0; d < 4; ++d) {
    if (v.sizes[d] != k.sizes[d] || out.sizes[d] != q.sizes[d] || vc.sizes[d] != kc.sizes[d]) {
      return b.invalid("q/out, k/v or the two caches differ in shape");
    }
  }
  if (!kv_same || kc.sizes[0] != q.sizes[0] || kc.sizes[2] != k.sizes[2] ||
      kc.sizes[3] != q.sizes[3]) {
    return b.invalid("k or the caches do not match q's batch, sequence or head size");
  }
  if (k.sizes[2] == 0 || q.sizes[2] % k.sizes[2] != 0) {
    return b.invalid("heads not a multiple of kv heads");
  }
  if (q.sizes[3] > kMaxHeadDim) return b.unsupported("a head size over 256");
  return Error::Ok;
}

Error build_sdpa_with_kv_cache(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(12));
  const TensorDesc *q, *k, *v, *kc, *vc, *out;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &q));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &k));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &v));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(3, &kc));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(4, &vc));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(11, &out));
  const ValueKind start_kind = b.value(b.arg_id(5)).kind;
  if (start_kind != ValueKind::SymInt) return b.unsupported("a start position that is not a SymInt");
  if (!b.is_null(7)) return b.unsupported("an attention mask");
  double dropout = 0;
  bool causal = true;
  EMBER_RETURN_IF_ERROR(b.double_arg(8, &dropout));
  EMBER_RETURN_IF_ERROR(b.bool_arg(9, &causal));
  if (dropout != 0) return b.unsupported("dropout");
  EMBER_RETURN_IF_ERROR(check_sdpa_shapes(b, *q, *k, *v, *kc, *vc, *out));
  double scale = 1.0 / std::sqrt(double(q->sizes[3]));
  if (!b.is_null(10)) EMBER_RETURN_IF_ERROR(b.double_arg(10, &scale));
  const uint32_t row = uint32_t(k->sizes[2] * k->sizes[3]);
  KvPush kv{uint32_t(k->numel), uint32_t(k->sizes[1]), row, uint32_t(kc->sizes[1])};
  EMBER_RETURN_IF_ERROR(
      b.dispatch("kv_update", {b.arg_id(1), b.arg_id(3), b.arg_id(5)}, &kv, sizeof(kv), kv.total));
  EMBER_RETURN_IF_ERROR(
      b.dispatch("kv_update", {b.arg_id(2), b.arg_id(4), b.arg_id(5)}, &kv, sizeof(kv), kv.total));
  int64_t rows = 0;  // batch x seq x heads
  EMBER_RETURN_IF_ERROR(checked_product(b, q->sizes, 3, "q too large", &rows));
  SdpaPush p{};
  p.total = uint32_t(rows);
  p.seq = uint32_t(q->sizes[1]);
  p.heads = uint32_t(q->sizes[2]);
  p.kv_heads = uint32_t(k->sizes[2]);
  p.head_dim = uint32_t(q->sizes[3]);
  p.max_seq = uint32_t(kc->sizes[1]);
  p.scale = to_float(scale);
  p.causal = causal ? 1u : 0u;
  return b.dispatch("sdpa", {b.arg_id(0), b.arg_id(3), b.arg_id(4), b.arg_id(5), b.arg_id(11)},
                    &p, sizeof(p), p.total);
}

Error rope_one(Builder& b, int32_t x_id, int32_t out_id, const TensorDesc& x,
               const TensorDesc& out, const TensorDesc& fcos) {
  if (x.rank != 4 || out.rank != 4 || x.numel != out.numel || x.sizes[3] % 2 != 0) {
    return b.invalid("rotary input not [batch, seq, heads, even head_dim] like its output");
  }
  const int64_t half = x.sizes[3] / 2;
  if (fcos.numel != x.sizes[1] * half) return b.invalid("frequencies not [seq, head_dim / 2]");
  RopePush p{uint32_t(x.numel / 2), uint32_t(x.sizes[1]), uint32_t(x.sizes[2]), uint32_t(half)};
  return b.dispatch("rope", {x_id, b.arg_id(2), b.arg_id(3), out_id}, &p, sizeof(p), p.total);
}

Error build_apply_rotary_emb(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(5));
  const TensorDesc *xq, *xk, *fcos, *fsin;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &xq));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &xk));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &fcos));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(3, &fsin));
  std::vector<int32_t> outs;
  EMBER_RETURN_IF_ERROR(b.tensor_list_arg(4, &outs));
  if (outs.size() != 2) return b.invalid("rotary embedding without two outputs");
  if (fcos->numel != fsin->numel) return b.invalid("cos and sin frequencies differ in size");
  for (const TensorDesc* t : {xq, xk, fcos, fsin}) {
    if (!device_float(t->dtype)) return b.unsupported("non-float rotary tensors");
  }
  EMBER_RETURN_IF_ERROR(rope_one(b, b.arg_id(0), outs[0], *xq, b.value(outs[0]).tensor, *fcos));
  return rope_one(b, b.arg_id(1), outs[1], *xk, b.value(outs[1]).tensor, *fcos);
}

const OpEntry kRows[] = {
    {"et_vk.select_as_symint.default", build_select_as_symint},
    {"sdpa_with_kv_cache.default", build_sdpa_with_kv_cache},
    {"llama.sdpa_with_kv_cache.default", build_sdpa_with_kv_cache},
    {"et_vk.apply_rotary_emb.default", build_apply_rotary_emb},
};

}  // namespace

OpFamily llm_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan
