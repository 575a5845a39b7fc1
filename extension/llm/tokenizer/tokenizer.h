// Tokenizers for the LLM runner: text to token ids and back, for the file
// formats upstream's runner accepts (SentencePiece .model, the llama2.c
// tokenizer.bin, Hugging Face tokenizer.json, tiktoken). load_tokenizer()
// reads a file and picks the format from its bytes.
//
// decode() is per token and returns raw bytes: a piece may end inside a
// UTF-8 character (byte-fallback tokens, byte-level BPE), so streaming
// code joins pieces and prints only whole characters (utf8_stream.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

enum class TokenizerFormat { SentencePiece, Llama2c, HuggingFace, Tiktoken };

const char* tokenizer_format_name(TokenizerFormat format);

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  // Token ids of `text`, with `bos` copies of the BOS id in front and `eos`
  // copies of the EOS id behind (upstream's num_bos / num_eos).
  virtual Result<std::vector<uint64_t>> encode(const std::string& text, int8_t bos,
                                               int8_t eos) const = 0;
  // The bytes `token` stands for when it follows `prev` (SentencePiece
  // drops the leading space of the first piece after BOS). InvalidArgument
  // for an id outside the vocabulary.
  virtual Result<std::string> decode(uint64_t prev, uint64_t token) const = 0;

  virtual uint64_t vocab_size() const = 0;
  virtual uint64_t bos_tok() const = 0;
  virtual uint64_t eos_tok() const = 0;
  virtual TokenizerFormat format() const = 0;
};

// Reads `path` and builds the tokenizer its bytes describe. InvalidArgument
// (with a message naming the file and what was expected) for a file of no
// known format or a malformed one; AccessFailed when it cannot be read.
Result<std::unique_ptr<Tokenizer>> load_tokenizer(const std::string& path);

// The format `bytes` look like, without building anything; InvalidArgument
// when none matches.
Result<TokenizerFormat> detect_tokenizer_format(const std::string& bytes);

}  // namespace ember::llm
