// Fuzz target: the LLM tokenizer files (extension/llm/tokenizer), as
// ember_llm and ember.llm read them from a path the user gives.
// Input layout: byte 0 picks the reader (0 SentencePiece, 1 llama2.c,
// 2 tokenizer.json, 3 tiktoken, else the format detector); the rest is the
// file. A tokenizer that loads encodes a fixed text and decodes every id it
// returns plus a few ids at and past the vocabulary's end.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace {

using ember::Result;
using ember::llm::Tokenizer;

Result<std::unique_ptr<Tokenizer>> build(uint8_t selector, const std::string& file) {
  const std::string path = "fuzz-input";
  switch (selector) {
    case 0: return ember::llm::make_sentencepiece_tokenizer(file, path);
    case 1: return ember::llm::make_llama2c_tokenizer(file, path);
    case 2: return ember::llm::make_hf_tokenizer(file, path);
    case 3: return ember::llm::make_tiktoken_tokenizer(file, path);
    default: break;
  }
  Result<ember::llm::TokenizerFormat> format = ember::llm::detect_tokenizer_format(file);
  if (!format.ok()) return format.error();
  return build(static_cast<uint8_t>(*format), file);
}

void exercise(const Tokenizer& tok) {
  // ASCII, a multi-byte character, an emoji, digits, a newline run and an
  // invalid UTF-8 byte: the paths pre-tokenizers and byte fallback take.
  const std::string text = "Hello, w\xc3\xb6rld! 12345 \xf0\x9f\x99\x82\n\n  tabs\t\xff end";
  Result<std::vector<uint64_t>> ids = tok.encode(text, 1, 1);
  uint64_t prev = tok.bos_tok();
  if (ids.ok()) {
    for (uint64_t id : *ids) {
      // Every id encode() returns must decode.
      if (id >= tok.vocab_size() || !tok.decode(prev, id).ok()) __builtin_trap();
      prev = id;
    }
  }
  const uint64_t n = tok.vocab_size();
  for (uint64_t id : {uint64_t{0}, n > 0 ? n - 1 : 0, n, n + 1, ~uint64_t{0}}) {
    (void)tok.decode(prev, id);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
  Result<std::unique_ptr<Tokenizer>> tok = build(data[0] % 5, file);
  if (tok.ok()) exercise(**tok);
  return 0;
}
