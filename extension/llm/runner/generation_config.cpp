#include "extension/llm/runner/generation_config.h"

#include <algorithm>

namespace ember::llm {

int32_t GenerationConfig::resolve_max_new_tokens(int64_t max_context_len,
                                                 int64_t occupied) const {
  int64_t limit = max_context_len - occupied;
  if (seq_len != -1) limit = std::min<int64_t>(seq_len, max_context_len) - occupied;
  if (max_new_tokens != -1) limit = std::min<int64_t>(limit, max_new_tokens);
  return static_cast<int32_t>(std::max<int64_t>(0, std::min<int64_t>(limit, INT32_MAX)));
}

int32_t GenerationConfig::resolve_context_margin(int64_t max_context_len) const {
  if (context_margin != -1) return context_margin;
  int64_t margin = max_context_len / 4;
  if (max_new_tokens > 0) margin = std::min<int64_t>(margin, max_new_tokens);
  return static_cast<int32_t>(std::max<int64_t>(1, std::min<int64_t>(margin, INT32_MAX)));
}

}  // namespace ember::llm
