// The gated delta rule: the linear attention of gated DeltaNet layers
// (Qwen3.5), as upstream's LLM custom ops define it
// (llama::gated_delta_rule.out and its deprecated name
// llama::channelwise_gated_delta_rule.out).
//
// Layout is [batch, heads, seq, head_dim] (heads at dim 1, unlike sdpa.h):
//   query          [B, H,   T, K]
//   key            [B, Hkv, T, K]
//   value          [B, Hkv, T, V]
//   decay          [B, Hkv, T, K]  one gate per key channel, or
//                  [B, Hkv, T]     one gate per token (already exponentiated)
//   beta           [B, Hkv, T]
//   initial_state  [B, Hkv, K, V]
// H is a multiple of Hkv; query head h reads state head h / (H / Hkv).
// For each batch b and state head g, starting from S = initial_state[b, g]
// (K x V), token by token:
//   S = diag(decay_t) S                     (a scalar gate scales all of S)
//   delta = beta_t * (v_t - S^T k_t)        (V values)
//   S = S + k_t delta^T
//   out[b, h, t] = S^T q[b, h, t]           for the query heads h of g
// final_state_out[b, g] is S after the last token; initial_state is only
// read. Queries and keys arrive normalized and scaled: the operator does
// neither. This is the exact recurrence upstream's kernel runs for T == 1;
// for longer inputs upstream runs a chunked float32 form of the same sums.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

struct GatedDeltaInputs {
  Tensor query, key, value, decay, beta, initial_state;
};

// Checks the arguments above (dtypes: every tensor Float; dims; shapes;
// contiguity; final_state_out must not share memory with initial_state,
// as upstream requires), then resizes out to [B, H, T, V] and
// final_state_out to [B, Hkv, K, V] and computes both. A call the checks
// refuse leaves both outputs untouched. Scratch ((K + V) floats per state head)
// comes from ctx's temp allocator; running out fails the kernel with
// MemoryAllocationFailed. Returns false after failing the kernel.
bool run_gated_delta_rule(KernelArgs& args, KernelContext& ctx, const GatedDeltaInputs& in,
                          Tensor out, Tensor final_state_out);

}  // namespace ember
