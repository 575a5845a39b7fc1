// llama::update_cache_with_indices.out(Tensor value, Tensor(a!) cache,
//     SymInt start_pos, Tensor indices, *, Tensor(b!) out)
// Writes token s of batch b of value [B, S, H, D] into cache
// [B, max_seq_len, H, D] at row indices[b, s] (indices Long [B, S]; a
// ring-buffer or attention-sink cache names its positions this way).
// start_pos is not read when indices are given, as upstream. out is a
// placeholder the graph never reads, left untouched.
#include "kernels/llm/kv_cache.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void update_cache_with_indices_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "llama::update_cache_with_indices.out", 6);
  const Tensor value = a.tensor(0), cache = a.tensor(1);
  (void)a.int_value(2);
  const Tensor indices = a.tensor(3);
  (void)a.tensor_maybe_unbound(4);
  if (a.ok() && check_cache_indices(a, value, cache, indices, "cache")) {
    write_cache_rows(value, cache, indices);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("llama::update_cache_with_indices.out",
                      update_cache_with_indices_out_boxed);

}  // namespace ember
