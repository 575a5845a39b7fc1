#include "extension/llm/runner/seq2seq_runner.h"

#include <algorithm>

#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/metadata.h"
#include "extension/llm/runner/sampler.h"
#include "extension/llm/runner/utf8_stream.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

// The token a `sampler` method returned: one integer tensor element.
Result<uint64_t> program_sampler_token(const Outputs& out) {
  const TensorPtr& t = out.size() == 1 ? out.tensor(0) : TensorPtr();
  if (t == nullptr || t->numel() < 1 ||
      (t->scalar_type() != ScalarType::Long && t->scalar_type() != ScalarType::Int)) {
    set_error_message("method 'sampler' must return one Long or Int tensor (the token)");
    return Error::InvalidArgument;
  }
  const int64_t id = t->scalar_type() == ScalarType::Long ? t->const_data_ptr<int64_t>()[0]
                                                          : t->const_data_ptr<int32_t>()[0];
  if (id < 0) {
    set_error_message("method 'sampler' returned token %lld", (long long)id);
    return Error::InvalidArgument;
  }
  return uint64_t(id);
}

}  // namespace

Result<std::unique_ptr<Seq2SeqRunner>> Seq2SeqRunner::create(
    const std::string& model_path, const std::vector<std::string>& data_paths,
    std::unique_ptr<Tokenizer> tokenizer) {
  if (tokenizer == nullptr) {
    set_error_message("Seq2SeqRunner: no tokenizer");
    return Error::InvalidArgument;
  }
  std::unique_ptr<Seq2SeqRunner> r(new Seq2SeqRunner());
  Result<std::unique_ptr<Module>> module = open_program(
      model_path, data_paths, {kEncoder, kTextDecoder}, "not an encoder-decoder speech program");
  if (!module.ok()) return module.error();
  r->module_ = std::move(*module);
  r->tokenizer_ = std::move(tokenizer);
  Result<MethodMeta> decoder = r->module_->method_meta(kTextDecoder);
  if (!decoder.ok()) return decoder.error();
  if (decoder->num_inputs() != 3) {
    set_error_message("method '%s' takes %zu inputs; a speech decoder takes the token, the "
                      "encoder's output and the cache position", kTextDecoder,
                      decoder->num_inputs());
    return Error::InvalidArgument;
  }
  r->has_sampler_ = has_method(*r->module_, kSampler);
  return r;
}

bool Seq2SeqRunner::is_loaded() const {
  return module_->is_method_loaded(kEncoder) && module_->is_method_loaded(kTextDecoder) &&
         (!has_sampler_ || module_->is_method_loaded(kSampler));
}

Error Seq2SeqRunner::load() {
  if (is_loaded()) return Error::Ok;
  stats_.model_load_start_ms = time_in_ms();
  EMBER_RETURN_IF_ERROR(load_present_methods(*module_, {kEncoder, kTextDecoder, kSampler}));
  stats_.model_load_end_ms = time_in_ms();
  return Error::Ok;
}

Result<TensorPtr> Seq2SeqRunner::encode(const TensorPtr& features) {
  if (features == nullptr || features->numel() == 0) {
    set_error_message("the audio features are empty");
    return Error::InvalidArgument;
  }
  Result<TensorInfo> info = method_input(*module_, kEncoder, 0);
  if (!info.ok()) return info.error();
  Result<TensorPtr> input =
      adapt_tensor(features, info->sizes().size(), info->scalar_type(), kEncoder);
  if (!input.ok()) return input.error();
  Result<Outputs> out = module_->execute(kEncoder, std::vector<TensorPtr>{*input});
  if (!out.ok()) return out.error();
  if (out->size() != 1 || out->tensor(0) == nullptr) {
    set_error_message("method '%s' returned %zu outputs; one tensor expected", kEncoder,
                      out->size());
    return Error::InvalidArgument;
  }
  return out->tensor(0);
}

Result<uint64_t> Seq2SeqRunner::step(uint64_t token, int64_t position, const TensorPtr& hidden,
                                     Sampler* sampler, bool use_program_sampler) {
  Result<TensorPtr> id = make_tensor_ptr<int64_t>({1, 1}, {int64_t(token)});
  Result<TensorPtr> pos = make_tensor_ptr<int64_t>({1}, {position});
  if (!id.ok()) return id.error();
  if (!pos.ok()) return pos.error();
  Result<Outputs> out = module_->execute(kTextDecoder, std::vector<TensorPtr>{*id, hidden, *pos});
  if (!out.ok()) return out.error();
  if (out->size() != 1) {
    set_error_message("method '%s' returned %zu outputs; one logits tensor expected",
                      kTextDecoder, out->size());
    return Error::InvalidArgument;
  }
  stats_.on_sampling_begin();
  if (use_program_sampler) {
    Result<Outputs> picked = module_->execute(kSampler, std::vector<TensorPtr>{out->tensor(0)});
    stats_.on_sampling_end();
    if (!picked.ok()) return picked.error();
    return program_sampler_token(*picked);
  }
  EMBER_RETURN_IF_ERROR(last_logits_row(out->tensor(0), kTextDecoder, &logits_));
  const uint64_t next = uint64_t(sampler->sample(logits_.data()));
  stats_.on_sampling_end();
  return next;
}

Result<uint64_t> Seq2SeqRunner::start_token(const TranscribeConfig& config) {
  int64_t id = config.decoder_start_token_id;
  if (id < 0 && has_method(*module_, "decoder_start_token_id")) {
    Result<Outputs> out = module_->execute("decoder_start_token_id");
    if (!out.ok()) return out.error();
    if (out->size() != 1 || !(*out)[0].is_int()) {
      set_error_message("metadata method 'decoder_start_token_id' must return one integer");
      return Error::InvalidArgument;
    }
    id = (*out)[0].to_int();
  }
  if (id < 0) id = 50258;
  if (uint64_t(id) >= tokenizer_->vocab_size()) {
    set_error_message("decoder start token %lld is outside the tokenizer's %llu ids",
                      (long long)id, (unsigned long long)tokenizer_->vocab_size());
    return Error::InvalidArgument;
  }
  return uint64_t(id);
}

Result<std::vector<uint64_t>> Seq2SeqRunner::transcribe(const TensorPtr& features,
                                                        const TranscribeConfig& config,
                                                        TokenCallback on_token) {
  if (config.max_new_tokens <= 0) {
    set_error_message("max_new_tokens must be positive, is %d", int(config.max_new_tokens));
    return Error::InvalidArgument;
  }
  EMBER_RETURN_IF_ERROR(load());
  const uint64_t vocab = tokenizer_->vocab_size();
  Result<uint64_t> start = start_token(config);
  if (!start.ok()) return start.error();
  for (uint64_t id : config.forced_ids) {
    if (id >= vocab) {
      set_error_message("forced token %llu is outside the tokenizer's %llu ids",
                        (unsigned long long)id, (unsigned long long)vocab);
      return Error::InvalidArgument;
    }
  }
  std::vector<uint64_t> eos = config.eos_ids;
  if (eos.empty()) {
    Result<std::vector<uint64_t>> found = read_eos_ids(*module_, *tokenizer_);
    if (!found.ok()) return found.error();
    eos = *found;
  }
  stats_.reset_inference();
  stats_.inference_start_ms = time_in_ms();
  Result<TensorPtr> hidden = encode(features);
  if (!hidden.ok()) return hidden.error();
  stats_.prompt_eval_end_ms = time_in_ms();
  stats_.num_prompt_tokens = (*hidden)->dim() > 1 ? (*hidden)->size(1) : 1;
  const bool use_program_sampler = has_sampler_ && config.temperature == 0.0f;
  Sampler sampler(int32_t(vocab), config.temperature, config.topp, config.seed);
  std::vector<uint64_t> tokens{*start};
  tokens.insert(tokens.end(), config.forced_ids.begin(), config.forced_ids.end());
  Utf8Stream text;
  pieces_.clear();
  int64_t generated = 0;
  // The forced ids are fed one by one (their outputs are not sampled).
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    Result<uint64_t> ignored =
        step(tokens[i], int64_t(i), *hidden, &sampler, use_program_sampler);
    if (!ignored.ok()) return ignored.error();
  }
  while (generated < config.max_new_tokens) {
    const uint64_t prev = tokens.back();
    Result<uint64_t> next =
        step(prev, int64_t(tokens.size() - 1), *hidden, &sampler, use_program_sampler);
    if (!next.ok()) return next.error();
    if (generated == 0) stats_.first_token_ms = time_in_ms();
    tokens.push_back(*next);
    ++generated;
    Result<std::string> piece = tokenizer_->decode(prev, *next);
    if (!piece.ok()) return piece.error();
    pieces_.push_back(*piece);
    const std::string whole = text.push(*piece);
    if (!whole.empty() && on_token) on_token(whole);
    if (std::find(eos.begin(), eos.end(), *next) != eos.end()) break;
  }
  const std::string rest = text.flush();
  if (!rest.empty() && on_token) on_token(rest);
  stats_.inference_end_ms = time_in_ms();
  stats_.num_generated_tokens = generated;
  return tokens;
}

}  // namespace ember::llm
