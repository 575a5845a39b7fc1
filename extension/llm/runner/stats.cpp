#include "extension/llm/runner/stats.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>

namespace ember::llm {

int64_t time_in_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Stats::on_sampling_begin() { sampling_started_ms_ = time_in_ms(); }

void Stats::on_sampling_end() {
  aggregate_sampling_time_ms += time_in_ms() - sampling_started_ms_;
  sampling_started_ms_ = 0;
}

void Stats::reset() { *this = Stats(); }

void Stats::reset_inference() {
  const int64_t load_start = model_load_start_ms, load_end = model_load_end_ms;
  reset();
  model_load_start_ms = load_start;
  model_load_end_ms = load_end;
}

std::string stats_to_json_string(const Stats& s) {
  char text[512];
  std::snprintf(text, sizeof(text),
                "{\"prompt_tokens\":%" PRId64 ",\"generated_tokens\":%" PRId64
                ",\"model_load_start_ms\":%" PRId64 ",\"model_load_end_ms\":%" PRId64
                ",\"inference_start_ms\":%" PRId64 ",\"inference_end_ms\":%" PRId64
                ",\"prompt_eval_end_ms\":%" PRId64 ",\"first_token_ms\":%" PRId64
                ",\"aggregate_sampling_time_ms\":%" PRId64
                ",\"SCALING_FACTOR_UNITS_PER_SECOND\":%" PRId64 "}",
                s.num_prompt_tokens, s.num_generated_tokens, s.model_load_start_ms,
                s.model_load_end_ms, s.inference_start_ms, s.inference_end_ms,
                s.prompt_eval_end_ms, s.first_token_ms, s.aggregate_sampling_time_ms,
                Stats::kScalingFactorUnitsPerSecond);
  return text;
}

namespace {

double seconds(int64_t ms) { return double(ms) / Stats::kScalingFactorUnitsPerSecond; }
double rate(int64_t tokens, int64_t ms) {
  return ms > 0 ? double(tokens) / seconds(ms) : 0.0;
}

}  // namespace

std::string stats_report(const Stats& s) {
  const int64_t inference = s.inference_end_ms - s.inference_start_ms;
  const int64_t prompt = s.prompt_eval_end_ms - s.inference_start_ms;
  const int64_t generation = s.inference_end_ms - s.prompt_eval_end_ms;
  char text[1024];
  std::snprintf(
      text, sizeof(text),
      "PyTorchObserver %s\n"
      "\tPrompt Tokens: %" PRId64 "    Generated Tokens: %" PRId64 "\n"
      "\tModel Load Time:\t\t%f (seconds)\n"
      "\tTotal inference time:\t\t%f (seconds)\t\t Rate: \t%f (tokens/second)\n"
      "\t\tPrompt evaluation:\t%f (seconds)\t\t Rate: \t%f (tokens/second)\n"
      "\t\tGenerated %" PRId64 " tokens:\t%f (seconds)\t\t Rate: \t%f (tokens/second)\n"
      "\tTime to first generated token:\t%f (seconds)\n"
      "\tSampling time over %" PRId64 " tokens:\t%f (seconds)\n",
      stats_to_json_string(s).c_str(), s.num_prompt_tokens, s.num_generated_tokens,
      seconds(s.model_load_end_ms - s.model_load_start_ms), seconds(inference),
      rate(s.num_generated_tokens, inference), seconds(prompt),
      rate(s.num_prompt_tokens, prompt), s.num_generated_tokens, seconds(generation),
      rate(s.num_generated_tokens, generation), seconds(s.first_token_ms - s.inference_start_ms),
      s.num_prompt_tokens + s.num_generated_tokens, seconds(s.aggregate_sampling_time_ms));
  std::string report = text;
  if (s.num_cached_prompt_tokens > 0) {
    std::snprintf(text, sizeof(text),
                  "\tPrompt tokens from the cache:\t%" PRId64 " of %" PRId64
                  " (not prefilled)\n",
                  s.num_cached_prompt_tokens, s.num_prompt_tokens);
    report += text;
  }
  if (s.num_dropped_context_tokens > 0) {
    std::snprintf(text, sizeof(text),
                  "\tContext trimmed:\t%" PRId64 " tokens dropped, %" PRId64
                  " kept\n",
                  s.num_dropped_context_tokens, s.num_prompt_tokens);
    report += text;
  }
  return report;
}

}  // namespace ember::llm
