// Timings and counts of one generate() call, in upstream's format: the
// "PyTorchObserver {json}" line benchmarks parse, and the human report
// (load time, time to first token, prompt and generation rates, sampling
// time). Times are milliseconds since the epoch, as upstream's.
#pragma once

#include <cstdint>
#include <string>

namespace ember::llm {

struct Stats {
  static constexpr int64_t kScalingFactorUnitsPerSecond = 1000;  // ms
  int64_t model_load_start_ms = 0;
  int64_t model_load_end_ms = 0;
  int64_t inference_start_ms = 0;   // before the prompt is encoded
  int64_t prompt_eval_end_ms = 0;   // prefill done
  int64_t first_token_ms = 0;       // the first new token is known
  int64_t inference_end_ms = 0;
  int64_t aggregate_sampling_time_ms = 0;
  int64_t num_prompt_tokens = 0;
  // Of num_prompt_tokens, those the KV cache already held and prefill
  // skipped (TextLlmRunner::generate_from_cache); not in upstream's line.
  int64_t num_cached_prompt_tokens = 0;
  // Tokens of the conversation a context trim dropped before this call's
  // prefill (GenerationConfig::keep_first_tokens); not in upstream's line.
  int64_t num_dropped_context_tokens = 0;
  int64_t num_generated_tokens = 0;

  void on_sampling_begin();
  void on_sampling_end();
  void reset();
  // reset() keeping the model load times (upstream's reset(false)): for a
  // call after the one that loaded the model.
  void reset_inference();

 private:
  int64_t sampling_started_ms_ = 0;
};

int64_t time_in_ms();

// {"prompt_tokens":..,"generated_tokens":..,...,"SCALING_FACTOR_UNITS_PER_SECOND":1000}
std::string stats_to_json_string(const Stats& stats);
// The observer line followed by the human report, as upstream prints them
// (and, when the prompt cache served tokens or a context trim dropped some,
// a line saying how many).
std::string stats_report(const Stats& stats);

}  // namespace ember::llm
