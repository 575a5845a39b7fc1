// llama::update_cache.out(Tensor value, Tensor(a!) cache, SymInt start_pos,
//     *, Tensor(b!) out)
// Writes value [B, S, H, D] into cache [B, max_seq_len, H, D] at rows
// start_pos .. start_pos + S - 1 (kernels/llm/kv_cache.h). out is a
// placeholder the exported graph never reads; like upstream's kernel this
// one leaves it untouched.
#include "kernels/llm/kv_cache.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void update_cache_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "llama::update_cache.out", 5);
  const Tensor value = a.tensor(0), cache = a.tensor(1);
  const int64_t start_pos = a.int_value(2);
  (void)a.tensor_maybe_unbound(3);
  if (a.ok() && check_cache_update(a, value, cache, start_pos, "cache")) {
    write_cache(value, cache, start_pos);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("llama::update_cache.out", update_cache_out_boxed);

}  // namespace ember
