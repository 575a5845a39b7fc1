// Chats that outgrow the context (GenerationConfig::keep_first_tokens):
// which tokens a trim keeps. The conversation is the token sequence the KV
// cache holds followed by the new prompt; a trim keeps its first tokens (a
// system prompt) and its most recent ones and drops the middle.
// TextLlmRunner applies a plan (context_trim.cpp): it puts the method's
// state buffers back as they were when it loaded and prefills the kept
// tokens again from position 0, so the state after them is the state a
// fresh runner given them as its prompt has, for KV caches and for state
// that is not indexed by position (LFM2's convolutions, Qwen3.5's DeltaNet)
// alike; nothing is rewound (docs/llm.md).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

// Tokens [0, keep_first) and [resume, total) are kept, [keep_first, resume)
// dropped.
struct ContextTrim {
  int64_t keep_first = 0;
  int64_t resume = 0;
  int64_t dropped() const { return resume - keep_first; }
};

// The trim of a conversation of `total` tokens (the cache's and the new
// prompt's) in a context of `context` positions, keeping the first
// `keep_first` (fewer when the conversation is shorter) and leaving
// `margin` positions free after it for the answer:
// - nothing is dropped when total + margin <= context;
// - else the most recent tokens kept start at a turn: the earliest of
//   `turn_starts` (positions where a turn began, ascending; the new
//   prompt's start among them) that leaves the margin, so whole earlier
//   turns are dropped;
// - when no turn start does (none known, or the new prompt alone is too
//   long), exactly the most recent context - margin - keep_first tokens,
//   cutting into the oldest turn kept (or into the prompt).
// InvalidArgument (with a message naming both values) when keep_first is
// negative, margin below 1, or keep_first + margin + 1 > context: the first
// tokens and the margin would leave no room for even one recent token.
Result<ContextTrim> plan_context_trim(int64_t total, int64_t context, int64_t keep_first,
                                      int64_t margin, const std::vector<int64_t>& turn_starts);

}  // namespace ember::llm
