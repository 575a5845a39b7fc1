// What one generate() call does: how many tokens at most, how they are
// sampled, what is added to the prompt. Field meanings and defaults are
// upstream's GenerationConfig's (executorch 1.5.1), plus Ember's sampling
// controls (topp, seed), ignore_eos, and the context trim
// (keep_first_tokens, context_margin: context_trim.h, docs/llm.md).
#pragma once

#include <cstdint>

namespace ember::llm {

struct GenerationConfig {
  bool echo = true;             // pass the prompt to the token callback first
  int32_t max_new_tokens = -1;  // -1: as many as the context allows
  bool warming = false;         // a warm-up run: no printing, no report
  int32_t seq_len = -1;         // total tokens (prompt + new); -1: the context
  float temperature = 0.8f;     // 0: greedy (argmax)
  float topp = 0.9f;            // nucleus sampling when 0 < topp < 1
  uint64_t seed = 0;            // sampling seed; 0: seeded from the clock
  int32_t num_bos = 0;          // BOS tokens put in front of the prompt
  int32_t num_eos = 0;          // EOS tokens put after it
  bool ignore_eos = false;      // keep generating past an EOS token
  // A turn that would outgrow the context: -1 (upstream's behaviour) makes
  // a prompt that does not fit an InvalidArgument; N >= 0 keeps the
  // conversation's first N tokens (a system prompt) and its most recent
  // ones, drops the middle and prefills what is kept again from position 0
  // (TextLlmRunner::generate; the rule is plan_context_trim's).
  int32_t keep_first_tokens = -1;
  // With keep_first_tokens set: the positions a trim leaves free for the
  // answer after the new prompt, and the trigger (a prompt that leaves
  // fewer is trimmed). -1: a quarter of the context, or max_new_tokens when
  // that is smaller; otherwise at least 1.
  int32_t context_margin = -1;

  // New tokens allowed when `occupied` of `max_context_len` positions are
  // taken: the smallest of max_new_tokens, seq_len (capped by the context)
  // minus occupied, and the context minus occupied, each when set; never
  // below 0. The same rule as upstream's resolve_max_new_tokens.
  int32_t resolve_max_new_tokens(int64_t max_context_len, int64_t occupied) const;
  // context_margin as a trim uses it in a context of `max_context_len`
  // positions (the -1 rule above; other values as they are).
  int32_t resolve_context_margin(int64_t max_context_len) const;
};

}  // namespace ember::llm
