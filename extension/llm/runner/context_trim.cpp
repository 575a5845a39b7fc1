// The context trim (context_trim.h): the rule, and TextLlmRunner's part
// (text_llm_runner.h): planning a trim of the conversation, emptying the
// cache with the state buffers as loaded, and the kept tokens.
#include "extension/llm/runner/context_trim.h"

#include <algorithm>

#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

using ll = long long;

// `all` (the cache's tokens, then the prompt's) as `trim` keeps them.
std::vector<uint64_t> kept_tokens(const std::vector<uint64_t>& cache,
                                  const std::vector<uint64_t>& prompt, const ContextTrim& trim) {
  std::vector<uint64_t> all(cache);
  all.insert(all.end(), prompt.begin(), prompt.end());
  std::vector<uint64_t> kept(all.begin(), all.begin() + trim.keep_first);
  kept.insert(kept.end(), all.begin() + trim.resume, all.end());
  return kept;
}

}  // namespace

Result<ContextTrim> plan_context_trim(int64_t total, int64_t context, int64_t keep_first,
                                      int64_t margin, const std::vector<int64_t>& turn_starts) {
  EMBER_CHECK_OR_RETURN(keep_first >= 0, Error::InvalidArgument,
                        "keep_first_tokens %lld: -1 (no trim) or at least 0", ll(keep_first));
  EMBER_CHECK_OR_RETURN(margin >= 1, Error::InvalidArgument,
                        "context_margin %lld: -1 (the default) or at least 1", ll(margin));
  EMBER_CHECK_OR_RETURN(keep_first + margin + 1 <= context, Error::InvalidArgument,
                        "keep_first_tokens %lld is too large for the context: with %lld "
                        "positions left for the answer (context_margin) and one recent token, "
                        "it needs %lld of the %lld positions; keep at most %lld first",
                        ll(keep_first), ll(margin), ll(keep_first + margin + 1), ll(context),
                        ll(context - margin - 1));
  ContextTrim trim;
  trim.keep_first = std::min(keep_first, total);
  trim.resume = trim.keep_first;
  if (total + margin <= context) return trim;
  // total + margin > context, so the cut is past keep_first, and at least
  // one recent token is kept (room >= 1 by the check above).
  const int64_t room = context - margin - trim.keep_first;
  trim.resume = total - room;
  for (int64_t start : turn_starts) {
    if (start >= trim.resume && start < total) {
      trim.resume = start;
      break;
    }
  }
  return trim;
}

Result<ContextTrim> TextLlmRunner::plan_trim(const std::vector<uint64_t>& prompt,
                                             bool after_cache,
                                             const GenerationConfig& config) const {
  const int64_t held = after_cache ? position() : 0;
  return plan_context_trim(held + int64_t(prompt.size()), meta_.max_context_len,
                           config.keep_first_tokens,
                           config.resolve_context_margin(meta_.max_context_len),
                           after_cache ? turn_starts_ : std::vector<int64_t>());
}

Result<std::vector<uint64_t>> TextLlmRunner::trim_alone(std::vector<uint64_t> prompt,
                                                        const GenerationConfig& config) const {
  if (config.keep_first_tokens == -1) return prompt;
  Result<ContextTrim> trim = plan_trim(prompt, false, config);
  if (!trim.ok()) return trim.error();
  if (trim->dropped() == 0) return prompt;
  return kept_tokens({}, prompt, *trim);
}

Error TextLlmRunner::trim_after_cache(const GenerationConfig& config) {
  if (config.keep_first_tokens == -1) return Error::Ok;
  Result<ContextTrim> trim = plan_trim(prompt_ids_, true, config);
  if (!trim.ok()) return trim.error();
  if (trim->dropped() == 0) return Error::Ok;
  std::vector<uint64_t> kept = kept_tokens(cache_ids_, prompt_ids_, *trim);
  // The turns that stay, where they will be.
  std::vector<int64_t> starts;
  for (int64_t start : turn_starts_) {
    if (start < trim->keep_first) starts.push_back(start);
    if (start >= trim->resume) starts.push_back(trim->keep_first + start - trim->resume);
  }
  EMBER_RETURN_IF_ERROR(restart_state());
  prompt_ids_ = std::move(kept);
  turn_starts_ = std::move(starts);
  stats_.num_dropped_context_tokens = trim->dropped();
  return Error::Ok;
}

Error TextLlmRunner::restart_state() {
  cache_ids_.clear();
  turn_starts_.clear();
  const Error found = find_state();
  // A method that keeps no state has nothing to put back.
  if (found == Error::NotSupported) return Error::Ok;
  EMBER_RETURN_IF_ERROR(found);
  return reset_state_buffers(module_->program(), state_);
}

void TextLlmRunner::note_turn_start(int64_t start) {
  if (turn_starts_.empty() || turn_starts_.back() < start) turn_starts_.push_back(start);
}

}  // namespace ember::llm
