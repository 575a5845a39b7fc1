// TextLlmRunner: prompt in, streamed text out, for decoder-only LLMs that
// upstream's exporter wrote (export_llama or export_llm), shaped like
// upstream's TextLLMRunner so an app can switch:
//
//   auto tok = load_tokenizer("tokenizer.model");
//   auto runner = TextLlmRunner::create("llama.pte", {}, std::move(*tok));
//   GenerationConfig config;
//   config.temperature = 0;
//   (*runner)->generate("Once upon a time", config,
//                       [](const std::string& text) { std::cout << text; });
//
// The KV cache's position is kept across generate() calls, so a chat's
// next turn reuses the cache; reset() starts over. Prefill runs the whole
// prompt in one call when the program takes a dynamic sequence length (in
// chunks of what the token input takes when longer), token by token
// otherwise. Generation
// stops at an EOS id (unless ignore_eos), at the resolved max_new_tokens,
// or when stop() is called (from any thread). A prompt that does not fit
// the context left is an InvalidArgument with a message saying how much
// is used, never a truncation.
//
// Differences from upstream, on purpose: the library prints nothing (the
// callback gets the text; ember_llm prints it); the callback gets whole
// UTF-8 characters only (byte pieces are joined, see utf8_stream.h);
// sampling takes a seed (GenerationConfig::seed).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/generation_config.h"
#include "extension/llm/runner/metadata.h"
#include "extension/llm/runner/stats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/module/module.h"

namespace ember::llm {

class Sampler;

class TextLlmRunner {
 public:
  using TokenCallback = std::function<void(const std::string&)>;
  using StatsCallback = std::function<void(const Stats&)>;

  // Opens the program (with its .ptd data files) and reads its metadata;
  // the method itself loads on load() or the first generate().
  static Result<std::unique_ptr<TextLlmRunner>> create(
      const std::string& model_path, const std::vector<std::string>& data_paths,
      std::unique_ptr<Tokenizer> tokenizer, const std::string& method_name = "forward");

  ~TextLlmRunner();

  bool is_loaded() const;
  Error load();
  // Records the method's load and every forward call (profiling events)
  // into `tracer` (not owned; it must outlive the runner). Set it before
  // load() or the first generate(); InvalidState after.
  Error set_event_tracer(EventTracer* tracer);

  Error generate(const std::string& prompt, const GenerationConfig& config,
                 TokenCallback on_token = {}, StatsCallback on_stats = {});
  // Runs the prompt into the KV cache without generating (the position
  // moves past it); a later generate() continues from there.
  Error prefill(const std::string& prompt, const GenerationConfig& config);
  // A generate() with warming set and nothing reported, then reset().
  Error warmup(const std::string& prompt, int32_t max_new_tokens);
  // Ends a generate() in progress after its current token; safe from any
  // thread.
  void stop() { stop_requested_.store(true); }
  // Forgets the conversation: the position goes back to 0, stats cleared.
  void reset();

  int64_t position() const { return pos_; }
  const LlmMetadata& metadata() const { return meta_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const Stats& stats() const { return stats_; }
  // The program and its loaded method (for memory reports).
  const Module& module() const { return *module_; }
  // The token ids of the last generate(): its prompt (BOS/EOS included) and
  // every new token, the first one (from prefill) included.
  const std::vector<uint64_t>& last_prompt_ids() const { return prompt_ids_; }
  const std::vector<uint64_t>& last_generated_ids() const { return generated_ids_; }

 private:
  TextLlmRunner() = default;

  Result<std::vector<uint64_t>> encode_prompt(const std::string& prompt,
                                              const GenerationConfig& config);
  // One forward call on `tokens` at `start_pos`; the last row of logits
  // goes to logits_.
  Error step(const std::vector<int64_t>& tokens, int64_t start_pos);
  Result<uint64_t> prefill_tokens(const std::vector<uint64_t>& tokens);
  Result<int64_t> decode_loop(uint64_t first, int32_t max_new, const GenerationConfig& config,
                              const TokenCallback& emit);
  Result<uint64_t> sample(const GenerationConfig& config);

  std::unique_ptr<Tokenizer> tokenizer_;
  std::unique_ptr<Module> module_;
  std::string method_;
  LlmMetadata meta_;
  bool takes_cache_positions_ = false;  // input 1 is [n] positions, not [1] start
  int64_t token_capacity_ = 1;          // input 0's [1, n] upper bound
  size_t num_inputs_ = 0;
  int64_t pos_ = 0;
  std::atomic<bool> stop_requested_{false};
  EventTracer* event_tracer_ = nullptr;
  Stats stats_;
  std::vector<float> logits_;
  std::unique_ptr<Sampler> sampler_;
  float sampler_temperature_ = -1.0f;
  std::vector<uint64_t> prompt_ids_;
  std::vector<uint64_t> generated_ids_;
};

}  // namespace ember::llm
