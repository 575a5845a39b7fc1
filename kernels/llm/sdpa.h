// Scaled dot-product attention over a KV cache, as upstream's LLM custom
// ops define it (llama::custom_sdpa.out, llama::sdpa_with_kv_cache.out).
//
// Layout is [batch, seq, heads, head_dim] for every tensor (sequence at
// dim 1, not PyTorch SDPA's dim 2). query is [B, S, H, D]; the caches are
// [B, max_seq_len, H_kv, D] with H a multiple of H_kv (grouped-query
// attention: query head h reads cache head h / (H / H_kv)). The query's
// rows sit at absolute positions start_pos .. start_pos + S - 1.
//
//   scores = (q @ k^T) * scale          scale defaults to 1 / sqrt(D)
//   without attn_mask: keys 0 .. start_pos + S - 1 (the filled part of
//     the cache); with is_causal, row i sees keys j <= start_pos + i.
//   with attn_mask (Float, [S, max_seq_len]): keys 0 .. max_seq_len - 1,
//     scores += attn_mask (it masks the unfilled tail itself, with -inf);
//     is_causal must then be false.
//   out = softmax(scores) @ v            dropout_p is ignored (inference)
//
// Float is computed directly on the kernel maths library's GEMM and softmax
// (kernels/math); Half and BFloat16 are widened to float in temp
// memory one head at a time, computed the same way and rounded once. A
// row whose every score is -inf gives NaN, as in PyTorch.
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// Checks the arguments above (dims, dtypes, shapes, contiguity, start_pos
// range, mask shape), resizes out to q's sizes and computes it. Scratch
// comes from ctx's temp allocator; running out fails the kernel with
// MemoryAllocationFailed. Returns false after failing the kernel.
// Only the checks of run_cache_sdpa (no resize, nothing written): for
// callers that must refuse before touching anything else.
bool check_cache_sdpa(KernelArgs& args, Tensor q, Tensor k_cache, Tensor v_cache,
                      int64_t start_pos, const Optional<Tensor>& attn_mask, bool is_causal,
                      Tensor out);

bool run_cache_sdpa(KernelArgs& args, KernelContext& ctx, Tensor q, Tensor k_cache,
                    Tensor v_cache, int64_t start_pos, const Optional<Tensor>& attn_mask,
                    bool is_causal, const Optional<Scalar>& scale, Tensor out);

}  // namespace ember
