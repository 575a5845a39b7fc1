// load_tokenizer(): read the file, tell its format from its first bytes,
// hand it to that format's factory (formats.h).
#include <cctype>
#include <cstring>

#include "extension/file_util/read_file.h"
#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

size_t first_non_space(const std::string& bytes) {
  size_t i = 0;
  while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  return i;
}

// tiktoken: lines of "<base64 bytes> <rank>"; the first one is enough.
bool looks_like_tiktoken(const std::string& bytes) {
  const size_t end = bytes.find('\n');
  const std::string line = bytes.substr(0, end == std::string::npos ? bytes.size() : end);
  const size_t space = line.find(' ');
  if (space == 0 || space == std::string::npos || space + 1 >= line.size()) return false;
  for (size_t i = 0; i < space; ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (!std::isalnum(c) && c != '+' && c != '/' && c != '=') return false;
  }
  for (size_t i = space + 1; i < line.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[i])) && line[i] != '\r') return false;
  }
  return true;
}

// A SentencePiece ModelProto opens with its first piece: field 1,
// length-delimited (tag 0x0a, a varint length that fits the file), and that
// SentencePiece message opens with its own field 1, the piece text (0x0a).
// The second tag keeps out a llama2.c file whose vocab_size has the low
// byte 0x0a (266, 32010), which also opens with 0x0a.
bool looks_like_sentencepiece(const std::string& bytes) {
  if (bytes.size() < 3 || static_cast<unsigned char>(bytes[0]) != 0x0a) return false;
  uint64_t length = 0;
  size_t i = 1;
  for (int shift = 0; i < bytes.size() && shift < 35; shift += 7) {
    const unsigned char b = static_cast<unsigned char>(bytes[i++]);
    length |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      return length >= 2 && length <= bytes.size() - i &&
             static_cast<unsigned char>(bytes[i]) == 0x0a;
    }
  }
  return false;
}

int32_t little_endian_i32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return static_cast<int32_t>(v);
}

// llama2.c tokenizer.bin: a 16-byte header (vocab_size, bos, eos,
// max_token_length, int32 each) with the ids inside the vocabulary. The
// pieces after it are checked by the reader, which says what is wrong.
bool looks_like_llama2c(const std::string& bytes) {
  if (bytes.size() < 16) return false;
  const int32_t vocab_size = little_endian_i32(bytes, 0);
  const int32_t bos = little_endian_i32(bytes, 4);
  const int32_t eos = little_endian_i32(bytes, 8);
  const int32_t max_token_length = little_endian_i32(bytes, 12);
  return vocab_size > 0 && bos >= 0 && bos < vocab_size && eos >= 0 && eos < vocab_size &&
         max_token_length >= 0;
}

}  // namespace

const char* tokenizer_format_name(TokenizerFormat format) {
  switch (format) {
    case TokenizerFormat::SentencePiece: return "SentencePiece";
    case TokenizerFormat::Llama2c: return "llama2.c tokenizer.bin";
    case TokenizerFormat::HuggingFace: return "Hugging Face tokenizer.json";
    case TokenizerFormat::Tiktoken: return "tiktoken";
  }
  return "?";
}

Result<TokenizerFormat> detect_tokenizer_format(const std::string& bytes) {
  if (bytes.empty()) {
    set_error_message("the file is empty");
    return Error::InvalidArgument;
  }
  const size_t start = first_non_space(bytes);
  if (start < bytes.size() && bytes[start] == '{') return TokenizerFormat::HuggingFace;
  if (looks_like_tiktoken(bytes)) return TokenizerFormat::Tiktoken;
  if (looks_like_sentencepiece(bytes)) return TokenizerFormat::SentencePiece;
  if (looks_like_llama2c(bytes)) return TokenizerFormat::Llama2c;
  set_error_message("%zu bytes: not a SentencePiece model, llama2.c tokenizer.bin, "
                    "tokenizer.json or tiktoken file", bytes.size());
  return Error::InvalidArgument;
}

Result<std::unique_ptr<Tokenizer>> load_tokenizer(const std::string& path) {
  Result<std::vector<uint8_t>> file = read_file(path);
  if (!file.ok()) return file.error();
  const std::string bytes(file->begin(), file->end());
  Result<TokenizerFormat> format = detect_tokenizer_format(bytes);
  if (!format.ok()) {
    prefix_error_message("tokenizer", "%s", path.c_str());
    return format.error();
  }
  switch (*format) {
    case TokenizerFormat::SentencePiece: return make_sentencepiece_tokenizer(bytes, path);
    case TokenizerFormat::Llama2c: return make_llama2c_tokenizer(bytes, path);
    case TokenizerFormat::HuggingFace: return make_hf_tokenizer(bytes, path);
    case TokenizerFormat::Tiktoken: return make_tiktoken_tokenizer(bytes, path);
  }
  return Error::Internal;
}

}  // namespace ember::llm
