#include "extension/llm/runner/multimodal_runner.h"

#include <algorithm>

#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/sampler.h"
#include "extension/llm/runner/utf8_stream.h"
#include "runtime/core/error_message.h"

namespace ember::llm {

const char* input_kind_name(MultimodalInput::Kind kind) {
  switch (kind) {
    case MultimodalInput::Kind::kText: return "text";
    case MultimodalInput::Kind::kTokens: return "tokens";
    case MultimodalInput::Kind::kImage: return "image";
    case MultimodalInput::Kind::kAudio: return "audio";
  }
  return "unknown";
}

namespace {

// Rows [begin, begin + count) of embeddings [1, n, D], sharing its data.
Result<TensorPtr> embedding_rows(const TensorPtr& all, int64_t begin, int64_t count) {
  const int64_t width = all->size(2);
  uint8_t* base = static_cast<uint8_t*>(all->mutable_data_ptr());
  const size_t offset = size_t(begin * width) * element_size(all->scalar_type());
  TensorPtr keep = all;
  return from_blob(base + offset, {1, SizesType(count), SizesType(width)}, all->scalar_type(),
                   [keep](void*) {});
}

}  // namespace

Result<std::unique_ptr<MultimodalRunner>> MultimodalRunner::create(
    const std::string& model_path, const std::vector<std::string>& data_paths,
    std::unique_ptr<Tokenizer> tokenizer) {
  if (tokenizer == nullptr) {
    set_error_message("MultimodalRunner: no tokenizer");
    return Error::InvalidArgument;
  }
  std::unique_ptr<MultimodalRunner> r(new MultimodalRunner());
  Result<std::unique_ptr<Module>> module =
      open_program(model_path, data_paths, {kTokenEmbedding, kTextDecoder},
                   "not a multimodal program (a text-only LLM runs with the text runner)");
  if (!module.ok()) return module.error();
  r->module_ = std::move(*module);
  r->tokenizer_ = std::move(tokenizer);
  r->has_vision_ = has_method(*r->module_, kVisionEncoder);
  r->has_audio_ = has_method(*r->module_, kAudioEncoder);
  Result<TensorInfo> embeds = method_input(*r->module_, kTextDecoder, 0);
  if (!embeds.ok()) return embeds.error();
  if (embeds->sizes().size() != 3 || embeds->sizes()[1] < 1) {
    set_error_message("method '%s' input 0 has %zu dims; it takes embeddings [1, n, D]",
                      kTextDecoder, embeds->sizes().size());
    return Error::InvalidArgument;
  }
  r->decoder_capacity_ = embeds->sizes()[1];
  Result<TensorInfo> tokens = method_input(*r->module_, kTokenEmbedding, 0);
  if (!tokens.ok()) return tokens.error();
  if (tokens->sizes().size() != 2 || tokens->sizes()[1] < 1) {
    set_error_message("method '%s' input 0 has %zu dims; it takes token ids [1, n]",
                      kTokenEmbedding, tokens->sizes().size());
    return Error::InvalidArgument;
  }
  r->token_capacity_ = tokens->sizes()[1];
  Result<TensorInfo> positions = method_input(*r->module_, kTextDecoder, 1);
  if (!positions.ok()) return positions.error();
  r->per_token_positions_ = positions->sizes().size() > 0 && positions->sizes()[0] > 1;
  Result<LlmMetadata> m = read_llm_metadata(*r->module_, *r->tokenizer_);
  if (!m.ok()) return m.error();
  r->meta_ = *m;
  return r;
}

bool MultimodalRunner::is_loaded() const {
  return module_->is_method_loaded(kTokenEmbedding) && module_->is_method_loaded(kTextDecoder) &&
         (!has_vision_ || module_->is_method_loaded(kVisionEncoder)) &&
         (!has_audio_ || module_->is_method_loaded(kAudioEncoder));
}

Error MultimodalRunner::load() {
  if (is_loaded()) return Error::Ok;
  stats_.model_load_start_ms = time_in_ms();
  EMBER_RETURN_IF_ERROR(
      load_present_methods(*module_,
                           {kTokenEmbedding, kTextDecoder, kVisionEncoder, kAudioEncoder}));
  stats_.model_load_end_ms = time_in_ms();
  return Error::Ok;
}

void MultimodalRunner::reset() {
  stats_.reset();
  position_ = 0;
}

Error MultimodalRunner::check_inputs(const std::vector<MultimodalInput>& inputs) const {
  if (inputs.empty()) {
    set_error_message("the prompt has no pieces");
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const MultimodalInput& in = inputs[i];
    const char* missing = nullptr;
    bool empty = false;
    switch (in.kind) {
      case MultimodalInput::Kind::kText: empty = in.text.empty(); break;
      case MultimodalInput::Kind::kTokens: empty = in.tokens.empty(); break;
      case MultimodalInput::Kind::kImage:
        empty = in.tensor == nullptr || in.tensor->numel() == 0;
        if (!has_vision_) missing = kVisionEncoder;
        break;
      case MultimodalInput::Kind::kAudio:
        empty = in.tensor == nullptr || in.tensor->numel() == 0;
        if (!has_audio_) missing = kAudioEncoder;
        break;
    }
    if (missing != nullptr) {
      set_error_message("prompt piece %zu is %s, and the program has no '%s' method", i,
                        input_kind_name(in.kind), missing);
      return Error::InvalidArgument;
    }
    if (empty) {
      set_error_message("prompt piece %zu (%s) is empty", i, input_kind_name(in.kind));
      return Error::InvalidArgument;
    }
    if (in.kind == MultimodalInput::Kind::kTokens) {
      for (uint64_t id : in.tokens) {
        if (id >= tokenizer_->vocab_size()) {
          set_error_message("prompt piece %zu: token id %llu is outside the vocabulary of %llu",
                            i, (unsigned long long)id,
                            (unsigned long long)tokenizer_->vocab_size());
          return Error::InvalidArgument;
        }
      }
    }
  }
  return Error::Ok;
}

Result<TensorPtr> MultimodalRunner::embed_tokens(const std::vector<uint64_t>& ids) {
  std::vector<int64_t> values(ids.begin(), ids.end());
  const SizesType n = SizesType(values.size());
  Result<TensorPtr> tokens = make_tensor_ptr({1, n}, std::move(values));
  if (!tokens.ok()) return tokens.error();
  Result<Outputs> out = module_->execute(kTokenEmbedding, std::vector<TensorPtr>{*tokens});
  if (!out.ok()) return out.error();
  if (out->size() != 1 || out->tensor(0) == nullptr || out->tensor(0)->dim() != 3) {
    set_error_message("method '%s' must return one tensor of embeddings [1, n, D]",
                      kTokenEmbedding);
    return Error::InvalidArgument;
  }
  return out->tensor(0);
}

Result<TensorPtr> MultimodalRunner::run_encoder(const char* method, const TensorPtr& given) {
  Result<TensorInfo> info = method_input(*module_, method, 0);
  if (!info.ok()) return info.error();
  Result<TensorPtr> input =
      adapt_tensor(given, info->sizes().size(), info->scalar_type(), method);
  if (!input.ok()) return input.error();
  Result<Outputs> out = module_->execute(method, std::vector<TensorPtr>{*input});
  if (!out.ok()) return out.error();
  if (out->size() < 1 || out->tensor(0) == nullptr) {
    set_error_message("method '%s' returned no tensor", method);
    return Error::InvalidArgument;
  }
  TensorPtr embeddings = out->tensor(0);
  // An encoder may return [n, D] for one image; the decoder takes [1, n, D].
  if (embeddings->dim() == 2) {
    Result<TensorPtr> batched = adapt_tensor(embeddings, 3, embeddings->scalar_type(), method);
    if (!batched.ok()) return batched.error();
    embeddings = *batched;
  }
  if (embeddings->dim() != 3 || embeddings->size(0) != 1 || embeddings->size(1) < 1) {
    set_error_message("method '%s' returned a %zu-d tensor; embeddings [1, n, D] expected",
                      method, embeddings->dim());
    return Error::InvalidArgument;
  }
  return embeddings;
}

Error MultimodalRunner::run_tokens(const std::vector<uint64_t>& ids) {
  const int64_t n = int64_t(ids.size());
  if (position_ + n > meta_.max_context_len) {
    set_error_message("the prompt needs %lld positions after %lld used; the context has %lld",
                      (long long)n, (long long)position_, (long long)meta_.max_context_len);
    return Error::InvalidArgument;
  }
  const size_t chunk = size_t(std::min(token_capacity_, decoder_capacity_));
  for (size_t begin = 0; begin < ids.size(); begin += chunk) {
    const size_t end = std::min(ids.size(), begin + chunk);
    Result<TensorPtr> embeddings =
        embed_tokens(std::vector<uint64_t>(ids.begin() + begin, ids.begin() + end));
    if (!embeddings.ok()) return embeddings.error();
    EMBER_RETURN_IF_ERROR(decode_embeddings(*embeddings));
  }
  return Error::Ok;
}

Error MultimodalRunner::run_piece(const MultimodalInput& input, int8_t bos, int8_t eos) {
  switch (input.kind) {
    case MultimodalInput::Kind::kText: {
      Result<std::vector<uint64_t>> ids = tokenizer_->encode(input.text, bos, eos);
      if (!ids.ok()) return ids.error();
      prompt_ids_.insert(prompt_ids_.end(), ids->begin(), ids->end());
      return run_tokens(*ids);
    }
    case MultimodalInput::Kind::kTokens:
      prompt_ids_.insert(prompt_ids_.end(), input.tokens.begin(), input.tokens.end());
      return run_tokens(input.tokens);
    case MultimodalInput::Kind::kImage:
    case MultimodalInput::Kind::kAudio: {
      const bool image = input.kind == MultimodalInput::Kind::kImage;
      Result<TensorPtr> embeddings =
          run_encoder(image ? kVisionEncoder : kAudioEncoder, input.tensor);
      if (!embeddings.ok()) return embeddings.error();
      return decode_embeddings(*embeddings);
    }
  }
  return Error::Internal;
}

Error MultimodalRunner::decode_embeddings(const TensorPtr& embeddings) {
  const int64_t n = embeddings->size(1);
  if (position_ + n > meta_.max_context_len) {
    set_error_message("the prompt needs %lld positions after %lld used; the context has %lld",
                      (long long)n, (long long)position_, (long long)meta_.max_context_len);
    return Error::InvalidArgument;
  }
  for (int64_t begin = 0; begin < n; begin += decoder_capacity_) {
    const int64_t count = std::min(decoder_capacity_, n - begin);
    Result<TensorPtr> rows = count == n ? Result<TensorPtr>(embeddings)
                                        : embedding_rows(embeddings, begin, count);
    if (!rows.ok()) return rows.error();
    std::vector<int64_t> positions =
        position_values(per_token_positions_, position_, size_t(count));
    const SizesType n = SizesType(positions.size());
    Result<TensorPtr> pos = make_tensor_ptr({n}, std::move(positions));
    if (!pos.ok()) return pos.error();
    Result<Outputs> out = module_->execute(kTextDecoder, std::vector<TensorPtr>{*rows, *pos});
    if (!out.ok()) return out.error();
    if (out->size() != 1) {
      set_error_message("method '%s' returned %zu outputs; one logits tensor expected",
                        kTextDecoder, out->size());
      return Error::InvalidArgument;
    }
    EMBER_RETURN_IF_ERROR(last_logits_row(out->tensor(0), kTextDecoder, &logits_));
    position_ += count;
  }
  return Error::Ok;
}

Error MultimodalRunner::run_pieces(const std::vector<MultimodalInput>& inputs,
                                   const GenerationConfig& config) {
  EMBER_RETURN_IF_ERROR(check_inputs(inputs));
  if (config.num_bos < 0 || config.num_bos > 127 || config.num_eos < 0 || config.num_eos > 127) {
    set_error_message("num_bos %d / num_eos %d: each must be 0..127", int(config.num_bos),
                      int(config.num_eos));
    return Error::InvalidArgument;
  }
  EMBER_RETURN_IF_ERROR(load());
  piece_lengths_.clear();
  prompt_ids_.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const MultimodalInput& in = inputs[i];
    const bool first = i == 0 && position_ == 0;
    const bool text = in.kind == MultimodalInput::Kind::kText;
    if (first && !text && config.num_bos > 0) {
      const int64_t before = position_;
      const std::vector<uint64_t> bos(size_t(config.num_bos), meta_.bos_id);
      prompt_ids_.insert(prompt_ids_.end(), bos.begin(), bos.end());
      EMBER_RETURN_IF_ERROR(run_tokens(bos));
      piece_lengths_.push_back(position_ - before);
    }
    const int8_t bos = first && text ? int8_t(config.num_bos) : 0;
    const int8_t eos = first && text ? int8_t(config.num_eos) : 0;
    const int64_t before = position_;
    EMBER_RETURN_IF_ERROR(run_piece(in, bos, eos));
    piece_lengths_.push_back(position_ - before);
  }
  return Error::Ok;
}

Result<int64_t> MultimodalRunner::decode_loop(uint64_t first, int32_t max_new,
                                              const GenerationConfig& config,
                                              const TokenCallback& emit) {
  Sampler sampler(int32_t(logits_.size()), config.temperature, config.topp, config.seed);
  int64_t generated = 0;
  uint64_t cur = first;
  while (generated < max_new) {
    EMBER_RETURN_IF_ERROR(run_tokens({cur}));
    ++generated;
    stats_.on_sampling_begin();
    const uint64_t next = uint64_t(sampler.sample(logits_.data()));
    stats_.on_sampling_end();
    Result<std::string> piece = tokenizer_->decode(cur, next);
    if (!piece.ok()) return piece.error();
    cur = next;
    generated_ids_.push_back(cur);
    emit(*piece);
    if (stop_requested_.load()) break;
    if (!config.ignore_eos &&
        std::find(meta_.eos_ids.begin(), meta_.eos_ids.end(), cur) != meta_.eos_ids.end()) {
      break;
    }
  }
  return generated;
}

Error MultimodalRunner::prefill(const std::vector<MultimodalInput>& inputs,
                                const GenerationConfig& config) {
  return run_pieces(inputs, config);
}

Error MultimodalRunner::generate(const std::vector<MultimodalInput>& inputs,
                                 const GenerationConfig& config, TokenCallback on_token,
                                 StatsCallback on_stats) {
  if (config.max_new_tokens == 0) {
    set_error_message("max_new_tokens is 0: nothing to generate (prefill() runs a prompt alone)");
    return Error::InvalidArgument;
  }
  EMBER_RETURN_IF_ERROR(load());
  stop_requested_.store(false);
  stats_.reset_inference();
  stats_.inference_start_ms = time_in_ms();
  generated_ids_.clear();
  const int64_t start = position_;
  EMBER_RETURN_IF_ERROR(run_pieces(inputs, config));
  stats_.first_token_ms = stats_.prompt_eval_end_ms = time_in_ms();
  stats_.num_prompt_tokens = position_ - start;
  if (stats_.num_prompt_tokens == 0) {
    set_error_message("the prompt encoded to no tokens");
    return Error::InvalidArgument;
  }
  // As upstream's runner: the prompt is in the cache even when no token
  // may follow it.
  const int32_t max_new = config.resolve_max_new_tokens(meta_.max_context_len, position_);
  if (max_new <= 0) {
    set_error_message("no new tokens allowed: %lld of the %lld context positions are used "
                      "(max_new_tokens %d, seq_len %d); reset() the conversation",
                      (long long)position_, (long long)meta_.max_context_len,
                      int(config.max_new_tokens), int(config.seq_len));
    return Error::InvalidArgument;
  }
  Sampler greedy(int32_t(logits_.size()), 0.0f, 0.0f, 1);
  const uint64_t first = uint64_t(greedy.sample(logits_.data()));
  generated_ids_.push_back(first);
  Utf8Stream text;
  const TokenCallback emit = [&](const std::string& bytes) {
    const std::string whole = text.push(bytes);
    if (!whole.empty() && on_token) on_token(whole);
  };
  Result<std::string> piece = tokenizer_->decode(first, first);
  if (!piece.ok()) return piece.error();
  emit(*piece);
  const bool eos = !config.ignore_eos &&
                   std::find(meta_.eos_ids.begin(), meta_.eos_ids.end(), first) !=
                       meta_.eos_ids.end();
  int64_t generated = 0;
  if (max_new > 1 && !eos && !stop_requested_.load()) {
    Result<int64_t> n = decode_loop(first, max_new - 1, config, emit);
    if (!n.ok()) return n.error();
    generated = *n;
  }
  const std::string rest = text.flush();
  if (!rest.empty() && on_token) on_token(rest);
  stats_.inference_end_ms = time_in_ms();
  // Upstream counts the tokens after the first (which prefill gave).
  stats_.num_generated_tokens = generated;
  if (on_stats) on_stats(stats_);
  return Error::Ok;
}

}  // namespace ember::llm
