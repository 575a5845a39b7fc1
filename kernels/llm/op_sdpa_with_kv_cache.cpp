// llama::sdpa_with_kv_cache.out(Tensor query, Tensor key, Tensor value,
//     Tensor(a!) key_cache, Tensor(b!) value_cache, SymInt start_pos,
//     SymInt seq_len, Tensor? attn_mask=None, float drpout_p=0.,
//     bool is_causal=False, float? scale=None, *, Tensor(c!) out)
// Writes key and value ([B, S, H_kv, D]) into the caches at start_pos
// (kernels/llm/kv_cache.h), then attends like llama::custom_sdpa.out
// (kernels/llm/sdpa.h). seq_len must be query's S.
#include "kernels/llm/kv_cache.h"
#include "kernels/llm/sdpa.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sdpa_with_kv_cache_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "llama::sdpa_with_kv_cache.out", 13);
  const Tensor q = a.tensor(0), k = a.tensor(1), v = a.tensor(2);
  const Tensor k_cache = a.tensor(3), v_cache = a.tensor(4);
  const int64_t start_pos = a.int_value(5), seq_len = a.int_value(6);
  const Optional<Tensor> mask = a.optional_tensor(7);
  (void)a.scalar(8);  // dropout_p: inference ignores it, as upstream does
  const bool is_causal = a.bool_value(9);
  const Optional<Scalar> scale = a.optional_scalar(10);
  const Tensor out = a.tensor(11);
  if (!a.ok()) {
    return;
  }
  if (q.dim() != 4 || seq_len != q.sizes()[1]) {
    a.fail(Error::InvalidArgument, "seq_len %lld must be query's dim 1 (query is %zu-D)",
           static_cast<long long>(seq_len), q.dim());
    return;
  }
  // Check everything before writing the caches: a refused call leaves
  // them as they were.
  if (!check_cache_update(a, k, k_cache, start_pos, "key_cache") ||
      !check_cache_update(a, v, v_cache, start_pos, "value_cache")) {
    return;
  }
  if (k.sizes()[1] != seq_len || v.sizes()[1] != seq_len) {
    a.fail(Error::InvalidArgument, "key and value must hold seq_len %lld positions",
           static_cast<long long>(seq_len));
    return;
  }
  if (!check_cache_sdpa(a, q, k_cache, v_cache, start_pos, mask, is_causal, out)) {
    return;
  }
  write_cache(k, k_cache, start_pos);
  write_cache(v, v_cache, start_pos);
  (void)run_cache_sdpa(a, ctx, q, k_cache, v_cache, start_pos, mask, is_causal, scale, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("llama::sdpa_with_kv_cache.out", sdpa_with_kv_cache_out_boxed);

}  // namespace ember
