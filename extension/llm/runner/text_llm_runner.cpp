#include "extension/llm/runner/text_llm_runner.h"

#include <algorithm>
#include <cinttypes>

#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/sampler.h"
#include "extension/llm/runner/utf8_stream.h"
#include "extension/tensor/tensor_ptr.h"
#include "runtime/core/error_message.h"

namespace ember::llm {

Result<std::unique_ptr<TextLlmRunner>> TextLlmRunner::create(
    const std::string& model_path, const std::vector<std::string>& data_paths,
    std::unique_ptr<Tokenizer> tokenizer, const std::string& method_name) {
  if (tokenizer == nullptr) {
    set_error_message("TextLlmRunner: no tokenizer");
    return Error::InvalidArgument;
  }
  std::unique_ptr<TextLlmRunner> r(new TextLlmRunner());
  Result<std::unique_ptr<Module>> module = Module::load(model_path, data_paths);
  if (!module.ok()) return module.error();
  r->module_ = std::move(*module);
  // A generator reaches its activations on the first prompt and its KV
  // cache as the text grows: mapped at load, not during time to first token.
  r->module_->set_prefault_planned_memory(true);
  r->tokenizer_ = std::move(tokenizer);
  r->method_ = method_name;
  r->model_path_ = model_path;
  r->data_paths_ = data_paths;
  Result<MethodMeta> meta = r->module_->method_meta(method_name);
  if (!meta.ok()) return meta.error();
  r->num_inputs_ = meta->num_inputs();
  if (r->num_inputs_ < 1 || r->num_inputs_ > 2) {
    set_error_message("method '%s' takes %zu inputs: an LLM takes tokens, and with a KV cache "
                      "their start position", method_name.c_str(), r->num_inputs_);
    return Error::InvalidArgument;
  }
  Result<TensorInfo> tokens = meta->input_tensor_meta(0);
  if (!tokens.ok()) return tokens.error();
  if (tokens->sizes().size() != 2 || tokens->sizes()[1] < 1) {
    set_error_message("method '%s' input 0 has %zu dims; an LLM takes tokens as [1, n]",
                      method_name.c_str(), tokens->sizes().size());
    return Error::InvalidArgument;
  }
  r->token_capacity_ = tokens->sizes()[1];
  if (r->num_inputs_ == 2) {
    Result<TensorInfo> positions = meta->input_tensor_meta(1);
    if (!positions.ok()) return positions.error();
    r->takes_cache_positions_ = positions->sizes().size() > 0 && positions->sizes()[0] > 1;
  }
  Result<LlmMetadata> m = read_llm_metadata(*r->module_, *r->tokenizer_);
  if (!m.ok()) return m.error();
  r->meta_ = *m;
  return r;
}

TextLlmRunner::~TextLlmRunner() = default;

bool TextLlmRunner::is_loaded() const { return module_->is_method_loaded(method_); }

Error TextLlmRunner::load() {
  if (is_loaded()) return Error::Ok;
  stats_.model_load_start_ms = time_in_ms();
  const Error err = module_->load_method(method_, event_tracer_);
  stats_.model_load_end_ms = time_in_ms();
  return err;
}

Error TextLlmRunner::set_event_tracer(EventTracer* tracer) {
  if (is_loaded()) {
    set_error_message("set_event_tracer: method '%s' is already loaded", method_.c_str());
    return Error::InvalidState;
  }
  event_tracer_ = tracer;
  return Error::Ok;
}

void TextLlmRunner::reset() {
  stats_.reset();
  cache_ids_.clear();
  turn_starts_.clear();
}

Result<std::vector<uint64_t>> TextLlmRunner::encode(const std::string& prompt,
                                                    const GenerationConfig& config) const {
  if (prompt.empty()) {
    set_error_message("the prompt is empty");
    return Error::InvalidArgument;
  }
  if (config.num_bos < 0 || config.num_bos > 127 || config.num_eos < 0 || config.num_eos > 127) {
    set_error_message("num_bos %d / num_eos %d: each must be 0..127", int(config.num_bos),
                      int(config.num_eos));
    return Error::InvalidArgument;
  }
  return tokenizer_->encode(prompt, int8_t(config.num_bos), int8_t(config.num_eos));
}

Error TextLlmRunner::step(const std::vector<int64_t>& tokens, int64_t start_pos) {
  std::vector<int64_t> ids = tokens;
  Result<TensorPtr> input = from_blob(ids.data(), {1, SizesType(ids.size())}, ScalarType::Long);
  if (!input.ok()) return input.error();
  std::vector<TensorPtr> inputs{*input};
  std::vector<int64_t> positions;
  if (num_inputs_ == 2) {
    positions = position_values(takes_cache_positions_, start_pos, ids.size());
    Result<TensorPtr> pos =
        from_blob(positions.data(), {SizesType(positions.size())}, ScalarType::Long);
    if (!pos.ok()) return pos.error();
    inputs.push_back(*pos);
  }
  Result<Outputs> out = module_->execute(method_, inputs);
  if (!out.ok()) return out.error();
  if (out->size() != 1) {
    set_error_message("method '%s' returned %zu outputs; an LLM returns one logits tensor",
                      method_.c_str(), out->size());
    return Error::InvalidArgument;
  }
  return last_logits_row(out->tensor(0), method_.c_str(), &logits_);
}

Result<uint64_t> TextLlmRunner::sample(const GenerationConfig& config) {
  if (sampler_ == nullptr) {
    set_error_message("TextLlmRunner: sampling before generate() set up its sampler");
    return Error::Internal;
  }
  stats_.on_sampling_begin();
  const int32_t token = sampler_->sample(logits_.data());
  stats_.on_sampling_end();
  return uint64_t(token);
}

// The whole prompt in one call (in chunks of max_seq_len) when the program
// takes many tokens at once, else one token per call; the position moves
// past it.
// Returns the first new token (greedy, as upstream's prefill samples).
Result<uint64_t> TextLlmRunner::prefill_tokens(const std::vector<uint64_t>& tokens) {
  EMBER_RETURN_IF_ERROR(load());
  // Upstream's exporter bounds the token input at max_seq_len - 1 while
  // its runner sends chunks of max_seq_len (and fails on longer prompts):
  // chunks here are what the input takes.
  const bool parallel = meta_.enable_dynamic_shape || !meta_.use_kv_cache;
  const size_t chunk =
      parallel ? size_t(std::min<int64_t>(meta_.max_seq_len, token_capacity_)) : 1;
  for (size_t begin = 0; begin < tokens.size(); begin += chunk) {
    const size_t end = std::min(tokens.size(), begin + chunk);
    EMBER_RETURN_IF_ERROR(step(std::vector<int64_t>(tokens.begin() + begin, tokens.begin() + end),
                               position()));
    cache_ids_.insert(cache_ids_.end(), tokens.begin() + begin, tokens.begin() + end);
  }
  Sampler greedy(int32_t(logits_.size()), 0.0f, 0.0f, 1);
  return uint64_t(greedy.sample(logits_.data()));
}

// Feeds `first` and each token sampled after it, at most max_new calls;
// returns how many ran (the positions they took).
Result<int64_t> TextLlmRunner::decode_loop(uint64_t first, int32_t max_new,
                                           const GenerationConfig& config,
                                           const TokenCallback& emit) {
  const int64_t start = position();
  uint64_t cur = first;
  while (position() < start + max_new) {
    EMBER_RETURN_IF_ERROR(step({int64_t(cur)}, position()));
    const uint64_t prev = cur;
    Result<uint64_t> next = sample(config);
    if (!next.ok()) return next.error();
    cache_ids_.push_back(cur);
    cur = *next;
    generated_ids_.push_back(cur);
    Result<std::string> piece = tokenizer_->decode(prev, cur);
    if (!piece.ok()) return piece.error();
    emit(*piece);
    if (stop_requested_.load()) break;
    if (!config.ignore_eos &&
        std::find(meta_.eos_ids.begin(), meta_.eos_ids.end(), cur) != meta_.eos_ids.end()) {
      break;
    }
  }
  return position() - start;
}

Error TextLlmRunner::begin_generation(const std::string& prompt, const GenerationConfig& config,
                                      const std::vector<uint64_t>* ids) {
  EMBER_RETURN_IF_ERROR(load());
  stop_requested_.store(false);
  stats_.inference_start_ms = time_in_ms();
  stats_.num_dropped_context_tokens = 0;
  if (ids != nullptr) {
    EMBER_CHECK_OR_RETURN(!ids->empty(), Error::InvalidArgument, "the prompt has no token ids");
    for (size_t i = 0; i < ids->size(); ++i) {
      EMBER_CHECK_OR_RETURN((*ids)[i] < uint64_t(meta_.vocab_size), Error::InvalidArgument,
                            "prompt token %zu is id %llu, outside the vocabulary of %lld", i,
                            (unsigned long long)(*ids)[i], (long long)meta_.vocab_size);
    }
    prompt_ids_ = *ids;
  } else {
    Result<std::vector<uint64_t>> encoded = encode(prompt, config);
    if (!encoded.ok()) return encoded.error();
    prompt_ids_ = std::move(*encoded);
  }
  generated_ids_.clear();
  return Error::Ok;
}

Error TextLlmRunner::run_prompt(const std::string& prompt, int64_t start, size_t reused,
                                const GenerationConfig& config, const TokenCallback& on_token,
                                const StatsCallback& on_stats,
                                const PromptCallback& on_prompt_done) {
  const int64_t left = meta_.max_context_len - start;
  const int64_t n = int64_t(prompt_ids_.size());
  if (n < 1 || n >= left) {
    set_error_message("the prompt is %lld tokens and %lld of the %lld context positions are "
                      "left (%lld used): it does not fit; reset() the conversation or "
                      "shorten the prompt",
                      (long long)n, (long long)left, (long long)meta_.max_context_len,
                      (long long)start);
    return Error::InvalidArgument;
  }
  const int32_t max_new = config.resolve_max_new_tokens(left, n);
  if (max_new <= 0) {
    set_error_message("no new tokens allowed: max_new_tokens %d, seq_len %d, %lld prompt "
                      "tokens, %lld context positions left",
                      int(config.max_new_tokens), int(config.seq_len), (long long)n,
                      (long long)left);
    return Error::InvalidArgument;
  }
  if (reused == prompt_ids_.size() && logits_.empty()) {
    set_error_message("TextLlmRunner: the cache holds the prompt but no logits after it");
    return Error::Internal;
  }
  Utf8Stream text;
  const TokenCallback emit = [&](const std::string& bytes) {
    const std::string whole = text.push(bytes);
    if (!whole.empty() && on_token) on_token(whole);
  };
  if (config.echo && on_token) on_token(prompt);
  Result<uint64_t> first =
      prefill_tokens(std::vector<uint64_t>(prompt_ids_.begin() + reused, prompt_ids_.end()));
  if (!first.ok()) return first.error();
  stats_.first_token_ms = stats_.prompt_eval_end_ms = time_in_ms();
  generated_ids_.push_back(*first);
  Result<std::string> piece = tokenizer_->decode(*first, *first);
  if (!piece.ok()) return piece.error();
  emit(*piece);
  if (on_prompt_done) on_prompt_done();
  sampler_.reset(new Sampler(int32_t(logits_.size()), config.temperature, config.topp,
                             config.seed));
  Result<int64_t> generated = decode_loop(*first, max_new - 1, config, emit);
  if (!generated.ok()) return generated.error();
  const std::string rest = text.flush();
  if (!rest.empty() && on_token) on_token(rest);
  stats_.inference_end_ms = time_in_ms();
  stats_.num_prompt_tokens = n;
  stats_.num_cached_prompt_tokens = int64_t(reused);
  stats_.num_generated_tokens = *generated;
  if (on_stats) on_stats(stats_);
  return Error::Ok;
}

Error TextLlmRunner::continue_conversation(const std::string& echo,
                                           const GenerationConfig& config,
                                           const TokenCallback& on_token,
                                           const StatsCallback& on_stats) {
  note_turn_start(position());
  EMBER_RETURN_IF_ERROR(trim_after_cache(config));
  return run_prompt(echo, position(), 0, config, on_token, on_stats, {});
}

Error TextLlmRunner::generate(const std::string& prompt, const GenerationConfig& config,
                              TokenCallback on_token, StatsCallback on_stats) {
  EMBER_RETURN_IF_ERROR(begin_generation(prompt, config));
  return continue_conversation(prompt, config, on_token, on_stats);
}

Error TextLlmRunner::generate_tokens(const std::vector<uint64_t>& prompt_ids,
                                     const GenerationConfig& config, TokenCallback on_token,
                                     StatsCallback on_stats) {
  EMBER_RETURN_IF_ERROR(begin_generation({}, config, &prompt_ids));
  GenerationConfig no_echo = config;
  no_echo.echo = false;
  return continue_conversation({}, no_echo, on_token, on_stats);
}

Error TextLlmRunner::prefill(const std::string& prompt, const GenerationConfig& config) {
  Result<std::vector<uint64_t>> ids = encode(prompt, config);
  if (!ids.ok()) return ids.error();
  const int64_t left = meta_.max_context_len - position();
  if (int64_t(ids->size()) > left) {
    set_error_message("the prompt is %zu tokens and %lld context positions are left: it does "
                      "not fit", ids->size(), (long long)left);
    return Error::InvalidArgument;
  }
  note_turn_start(position());
  Result<uint64_t> first = prefill_tokens(*ids);
  return first.ok() ? Error::Ok : first.error();
}

Error TextLlmRunner::warmup(const std::string& prompt, int32_t max_new_tokens) {
  GenerationConfig config;
  config.echo = false;
  config.warming = true;
  config.max_new_tokens = max_new_tokens;
  const Error err = generate(prompt, config);
  reset();
  return err;
}

}  // namespace ember::llm
