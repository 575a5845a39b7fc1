// Seq2SeqRunner: speech in, streamed text out, for encoder-decoder speech
// recognizers as optimum-executorch exports Whisper, shaped like upstream's
// Seq2SeqRunner (extension/asr):
//
//   auto runner = Seq2SeqRunner::create("whisper.pte", {}, std::move(*tokenizer));
//   TranscribeConfig config;                 // greedy, start token 50258
//   auto ids = (*runner)->transcribe(features, config, print);
//
// The program has `encoder` (features [1, bins, frames] -> hidden states)
// and `text_decoder` (token [1, 1], the encoder's hidden states, cache
// position [1] -> logits), and may have `sampler` (logits -> the greedy
// token), which is used at temperature 0 as upstream does. The encoder runs
// once; the decoder then runs token by token from the start token, its
// cache position counting up from 0, until an EOS id or max_new_tokens.
// Features come from a preprocessor program (audio_features.h) or a file.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/stats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/module/module.h"

namespace ember::llm {

struct TranscribeConfig {
  int32_t max_new_tokens = 128;  // upstream's whisper runner's default
  float temperature = 0.0f;      // 0: greedy
  float topp = 0.9f;             // nucleus sampling when 0 < topp < 1 (temperature > 0)
  uint64_t seed = 0;             // sampling seed; 0: from the clock
  // The decoder's first token; -1: the program's decoder_start_token_id
  // method (optimum-executorch writes it), else 50258 (Whisper's
  // <|startoftranscript|>, which upstream's whisper runner always uses).
  int64_t decoder_start_token_id = -1;
  // Tokens fed after the start token before decoding (a language and task,
  // such as <|en|><|transcribe|>); upstream's runner feeds none.
  std::vector<uint64_t> forced_ids;
  // Empty: the program's get_eos_ids or get_eos_id, else the tokenizer's EOS.
  std::vector<uint64_t> eos_ids;
};

class Seq2SeqRunner {
 public:
  using TokenCallback = std::function<void(const std::string&)>;

  static constexpr const char* kEncoder = "encoder";
  static constexpr const char* kTextDecoder = "text_decoder";
  static constexpr const char* kSampler = "sampler";

  // Opens the program; InvalidArgument, naming what is missing, without
  // `encoder` or `text_decoder` or when text_decoder does not take three
  // inputs.
  static Result<std::unique_ptr<Seq2SeqRunner>> create(
      const std::string& model_path, const std::vector<std::string>& data_paths,
      std::unique_ptr<Tokenizer> tokenizer);

  Error load();
  bool is_loaded() const;

  // Transcribes `features` (Float; converted when the encoder takes
  // BFloat16 or Half; a missing batch dim is added). Returns every token
  // id, the start token first, as upstream's runner. The callback gets the
  // text of each new token (whole UTF-8 characters).
  Result<std::vector<uint64_t>> transcribe(const TensorPtr& features,
                                           const TranscribeConfig& config,
                                           TokenCallback on_token = {});

  // What the tokenizer decoded for each new token of the last
  // transcribe(), in order (raw bytes; special tokens as "<|...|>"):
  // timed_segments() (timestamps.h) reads Whisper's time tokens from them.
  const std::vector<std::string>& last_pieces() const { return pieces_; }
  bool has_sampler() const { return has_sampler_; }
  const Stats& stats() const { return stats_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const Module& module() const { return *module_; }

 private:
  Seq2SeqRunner() = default;
  Result<TensorPtr> encode(const TensorPtr& features);
  // config.decoder_start_token_id, or the program's when it is -1.
  Result<uint64_t> start_token(const TranscribeConfig& config);
  // One decoder step on `token` at `position`: the next token (the
  // `sampler` method's or `sampler`'s pick).
  Result<uint64_t> step(uint64_t token, int64_t position, const TensorPtr& hidden,
                        class Sampler* sampler, bool use_program_sampler);

  std::unique_ptr<Tokenizer> tokenizer_;
  std::unique_ptr<Module> module_;
  bool has_sampler_ = false;
  Stats stats_;
  std::vector<float> logits_;
  std::vector<std::string> pieces_;
};

}  // namespace ember::llm
