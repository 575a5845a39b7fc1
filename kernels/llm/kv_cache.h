// The KV cache of upstream's LLM custom ops (extension/llm/custom_ops):
// a contiguous [batch, max_seq_len, heads, head_dim] tensor that a step
// writes `seq_len` new positions into at `start_pos` (dim 1), shared by
// llama::update_cache.out and llama::sdpa_with_kv_cache.out.
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Checks that `value` ([B, S, H, D]) can be written into `cache`
// ([B, max_seq_len, H, D]) at `start_pos`: both 4-D and contiguous, the
// same dtype, equal B, H and D, and 0 <= start_pos, start_pos + S <=
// max_seq_len (no wrap-around: upstream's kernel refuses it too). `what`
// names the cache in messages ("key_cache").
bool check_cache_update(KernelArgs& args, Tensor value, Tensor cache, int64_t start_pos,
                        const char* what);

// Copies value into cache rows [start_pos, start_pos + S) of every batch.
// Call only after check_cache_update() passed.
void write_cache(Tensor value, Tensor cache, int64_t start_pos);

}  // namespace ember
