// llama::custom_sdpa.out(Tensor query, Tensor key, Tensor value,
//     SymInt start_pos, Tensor? attn_mask=None, float drpout_p=0.,
//     bool is_causal=False, float? scale=None, *, Tensor(a!) out)
// Attention of query [B, S, H, D] over the key/value caches
// [B, max_seq_len, H_kv, D] up to position start_pos + S - 1 (the whole
// cache when attn_mask is given); semantics in kernels/llm/sdpa.h.
#include "kernels/llm/sdpa.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void custom_sdpa_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "llama::custom_sdpa.out", 10);
  const Tensor q = a.tensor(0), k = a.tensor(1), v = a.tensor(2);
  const int64_t start_pos = a.int_value(3);
  const Optional<Tensor> mask = a.optional_tensor(4);
  (void)a.scalar(5);  // dropout_p: inference ignores it, as upstream does
  const bool is_causal = a.bool_value(6);
  const Optional<Scalar> scale = a.optional_scalar(7);
  const Tensor out = a.tensor(8);
  if (a.ok()) {
    (void)run_cache_sdpa(a, ctx, q, k, v, start_pos, mask, is_causal, scale, out);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("llama::custom_sdpa.out", custom_sdpa_out_boxed);

}  // namespace ember
