// The KV cache of upstream's LLM custom ops (extension/llm/custom_ops):
// a contiguous [batch, max_seq_len, heads, head_dim] tensor that a step
// writes `seq_len` new positions into at `start_pos` (dim 1), or at
// explicit positions, shared by llama::update_cache.out,
// llama::update_cache_with_indices.out and llama::sdpa_with_kv_cache.out.
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Checks the layouts only: value [B, S, H, D] and cache
// [B, max_seq_len, H, D] both 4-D and contiguous, of one dtype, with equal
// B, H and D.
bool check_cache_layout(KernelArgs& args, Tensor value, Tensor cache, const char* what);

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

// The layouts, and indices: Long [B, S], contiguous, every entry a
// position of the cache (where value[b, s] goes).
bool check_cache_indices(KernelArgs& args, Tensor value, Tensor cache, Tensor indices,
                         const char* what);

// Copies value[b, s] into cache row indices[b, s]; a position named twice
// keeps the later token. Call only after check_cache_indices() passed.
void write_cache_rows(Tensor value, Tensor cache, Tensor indices);

}  // namespace ember
