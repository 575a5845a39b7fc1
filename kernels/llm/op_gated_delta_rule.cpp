// llama::gated_delta_rule.out(Tensor query, Tensor key, Tensor value,
//     Tensor decay, Tensor beta, Tensor initial_state, *, Tensor(a!) out,
//     Tensor(b!) final_state_out) -> (Tensor(a!), Tensor(b!))
// Gated-DeltaNet linear attention (Qwen3.5): query [B, H, T, K] over the
// recurrent state [B, Hkv, K, V], advanced token by token; out is
// [B, H, T, V], final_state_out the state after the last token
// (kernels/llm/gated_delta_rule.h). initial_state is only read.
//
// llama::channelwise_gated_delta_rule.out is upstream's deprecated name
// for the same operator (same schema), kept so older programs still run.
//
// Boxed: the eight schema values, then the emitter's (out,
// final_state_out) list, or the two tensors again.
#include "kernels/llm/gated_delta_rule.h"
#include "kernels/portable/util/norm_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_boxed(KernelContext& ctx, Span<EValue*> args, const char* op_name) {
  KernelArgs a(ctx, args, op_name, tuple_op_arg_count(args.size(), 8, 2));
  const GatedDeltaInputs in{a.tensor(0), a.tensor(1), a.tensor(2),
                            a.tensor(3), a.tensor(4), a.tensor(5)};
  const Tensor out = a.tensor(6), final_state_out = a.tensor(7);
  if (a.ok()) {
    (void)run_gated_delta_rule(a, ctx, in, out, final_state_out);
  }
}

void gated_delta_rule_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  run_boxed(ctx, args, "llama::gated_delta_rule.out");
}

void channelwise_gated_delta_rule_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  run_boxed(ctx, args, "llama::channelwise_gated_delta_rule.out");
}

}  // namespace

EMBER_REGISTER_KERNEL("llama::gated_delta_rule.out", gated_delta_rule_out_boxed);
EMBER_REGISTER_KERNEL("llama::channelwise_gated_delta_rule.out",
                      channelwise_gated_delta_rule_out_boxed);

}  // namespace ember
