// MultimodalRunner: text, image and audio in, streamed text out, for the
// programs upstream's multimodal exports write (optimum-executorch's
// Gemma 3, Llava, Voxtral; upstream's examples), shaped like upstream's
// MultimodalRunner:
//
//   auto runner = MultimodalRunner::create("gemma3.pte", {}, std::move(*tokenizer));
//   std::vector<MultimodalInput> prompt = {
//       MultimodalInput::from_text("<start_of_turn>user\n<start_of_image>"),
//       MultimodalInput::from_image(image),   // image_loader.h
//       MultimodalInput::from_text("What is in this image?<end_of_turn>\n"
//                                  "<start_of_turn>model\n")};
//   (*runner)->generate(prompt, config, print);
//
// The program has methods `token_embedding` (token ids [1, n] -> embeddings
// [1, n, D]) and `text_decoder` (embeddings and their cache positions ->
// logits), and one encoder per medium it takes: `vision_encoder` (an image
// -> [1, n, D]) and `audio_encoder` (features -> [1, n, D]); the metadata
// methods of the text runner (metadata.h) say the context length, BOS and
// EOS ids. Each piece is encoded and run into the KV cache in order (a
// piece longer than text_decoder takes is run in chunks); the last
// piece's logits give the first new token (greedy, as upstream's prefill),
// then each new token goes through token_embedding and text_decoder.
//
// The cache position is kept across generate() calls (a chat's next turn
// continues it); reset() starts over. The library prints nothing: text
// goes to the callback in whole UTF-8 characters.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/generation_config.h"
#include "extension/llm/runner/metadata.h"
#include "extension/llm/runner/multimodal_input.h"
#include "extension/llm/runner/stats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/module/module.h"

namespace ember::llm {

class MultimodalRunner {
 public:
  using TokenCallback = std::function<void(const std::string&)>;
  using StatsCallback = std::function<void(const Stats&)>;

  // The method names upstream's runner uses.
  static constexpr const char* kTokenEmbedding = "token_embedding";
  static constexpr const char* kTextDecoder = "text_decoder";
  static constexpr const char* kVisionEncoder = "vision_encoder";
  static constexpr const char* kAudioEncoder = "audio_encoder";

  // Opens the program (with its .ptd data files) and reads its metadata.
  // InvalidArgument, naming what is missing, when the program lacks
  // token_embedding or text_decoder or their inputs are not shaped as
  // above.
  static Result<std::unique_ptr<MultimodalRunner>> create(
      const std::string& model_path, const std::vector<std::string>& data_paths,
      std::unique_ptr<Tokenizer> tokenizer);

  // Loads every method the runner uses (the encoders the program has).
  Error load();
  bool is_loaded() const;

  // Runs `inputs` into the cache after what it holds, then generates.
  // config.num_bos BOS tokens go before the first piece of a conversation
  // (encoded with a text piece, as token ids before anything else) and
  // num_eos EOS tokens after a first text piece, as upstream's runner.
  // InvalidArgument, with nothing run, for no pieces, a piece the program
  // has no encoder for, an empty text, or pieces that do not fit the
  // context left; an image or audio of the wrong dtype or shape fails at
  // its encoder with the Module's message (which names the method and
  // what it takes).
  Error generate(const std::vector<MultimodalInput>& inputs, const GenerationConfig& config,
                 TokenCallback on_token = {}, StatsCallback on_stats = {});
  // Runs `inputs` into the cache without generating.
  Error prefill(const std::vector<MultimodalInput>& inputs, const GenerationConfig& config);

  void stop() { stop_requested_.store(true); }
  void reset();

  bool has_vision() const { return has_vision_; }
  bool has_audio() const { return has_audio_; }
  int64_t position() const { return position_; }
  const LlmMetadata& metadata() const { return meta_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const Stats& stats() const { return stats_; }
  const Module& module() const { return *module_; }
  // The positions each piece of the last generate() or prefill() took, in
  // order (BOS tokens for a non-text first piece as a piece of their own).
  const std::vector<int64_t>& last_piece_lengths() const { return piece_lengths_; }
  // The token ids of the text and token pieces of the last generate(), in
  // order (images and audio are not tokens).
  const std::vector<uint64_t>& last_prompt_ids() const { return prompt_ids_; }
  // Every new token of the last generate(), the first one included.
  const std::vector<uint64_t>& last_generated_ids() const { return generated_ids_; }

 private:
  MultimodalRunner() = default;

  // Checks every piece before anything runs.
  Error check_inputs(const std::vector<MultimodalInput>& inputs) const;
  // Runs one piece into the cache: text (encoded with `bos`/`eos`) and
  // tokens through token_embedding, media through their encoder, then
  // text_decoder.
  Error run_piece(const MultimodalInput& input, int8_t bos, int8_t eos);
  // Token ids into the cache, in chunks of what token_embedding and
  // text_decoder take; InvalidArgument before anything runs when they do
  // not fit the context.
  Error run_tokens(const std::vector<uint64_t>& ids);
  Result<TensorPtr> embed_tokens(const std::vector<uint64_t>& ids);
  Result<TensorPtr> run_encoder(const char* method, const TensorPtr& given);
  // Runs embeddings [1, n, D] through text_decoder at position_ (in chunks
  // of what its input takes); the last row of logits goes to logits_.
  Error decode_embeddings(const TensorPtr& embeddings);
  Error run_pieces(const std::vector<MultimodalInput>& inputs, const GenerationConfig& config);
  Result<int64_t> decode_loop(uint64_t first, int32_t max_new, const GenerationConfig& config,
                              const TokenCallback& emit);

  std::unique_ptr<Tokenizer> tokenizer_;
  std::unique_ptr<Module> module_;
  LlmMetadata meta_;
  bool has_vision_ = false;
  bool has_audio_ = false;
  bool per_token_positions_ = false;  // text_decoder input 1 is [n] positions
  int64_t decoder_capacity_ = 1;      // text_decoder input 0's [1, n, D] bound
  int64_t token_capacity_ = 1;        // token_embedding input 0's [1, n] bound
  int64_t position_ = 0;
  std::atomic<bool> stop_requested_{false};
  Stats stats_;
  std::vector<float> logits_;
  std::vector<int64_t> piece_lengths_;
  std::vector<uint64_t> prompt_ids_;
  std::vector<uint64_t> generated_ids_;
};

}  // namespace ember::llm
