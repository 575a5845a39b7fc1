// tiktoken files ("<base64 token bytes> <rank>" per line) with the Llama 3
// pre-tokenizer and special tokens that upstream's C++ Tiktoken uses by
// default (pytorch-labs/tokenizers include/pytorch/tokenizers/tiktoken.h,
// which ExecuTorch's LLM runner constructs for a tiktoken file):
//  - the pattern is Llama 3's without its `\s+(?!\S)` alternative;
//  - 256 special tokens follow the ranks: id = number of ranks + index;
//    BOS is <|begin_of_text|> (index 0), EOS <|end_of_text|> (index 1);
//  - every special token in the text is encoded as its id;
//  - a pre-tokenized piece that is itself a token is that token, otherwise
//    its bytes merge by rank (the rank of a pair is that of its joined bytes).
#include <string_view>
#include <unordered_map>

#include "extension/llm/tokenizer/bpe_core.h"
#include "extension/llm/tokenizer/formats.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

constexpr const char* kLlama3Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+)";
constexpr size_t kNumSpecialTokens = 256;
constexpr size_t kBosIndex = 0;
constexpr size_t kEosIndex = 1;

std::vector<std::string> llama3_special_tokens() {
  std::vector<std::string> names = {
      "<|begin_of_text|>", "<|end_of_text|>",        "<|reserved_special_token_0|>",
      "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|step_id|>",
      "<|start_header_id|>", "<|end_header_id|>",    "<|eom_id|>",
      "<|eot_id|>",          "<|python_tag|>"};
  for (size_t n = 2; names.size() < kNumSpecialTokens; ++n) {
    names.push_back("<|reserved_special_token_" + std::to_string(n) + "|>");
  }
  return names;
}

// ---- Parsing the ranks file -------------------------------------------------

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with '=' padding, strictly: a multiple of 4 characters,
// padding only at the end. False (with `why`) when malformed.
bool decode_base64(std::string_view text, std::string* out, std::string* why) {
  if (text.empty() || text.size() % 4 != 0) {
    *why = "its length is not a positive multiple of 4";
    return false;
  }
  const size_t padding = text[text.size() - 1] != '=' ? 0 : text[text.size() - 2] != '=' ? 1 : 2;
  uint32_t bits = 0;
  for (size_t i = 0; i < text.size() - padding; ++i) {
    const int value = base64_value(text[i]);
    if (value < 0) {
      *why = "'" + printable(text.substr(i, 1)) + "' is not a base64 character";
      return false;
    }
    bits = (bits << 6) | static_cast<uint32_t>(value);
    if (i % 4 == 3) {
      out->push_back(static_cast<char>(bits >> 16));
      out->push_back(static_cast<char>(bits >> 8));
      out->push_back(static_cast<char>(bits));
      bits = 0;
    }
  }
  if (padding == 1) {
    out->push_back(static_cast<char>(bits >> 10));
    out->push_back(static_cast<char>(bits >> 2));
  } else if (padding == 2) {
    out->push_back(static_cast<char>(bits >> 4));
  }
  return true;
}

bool parse_rank(std::string_view text, uint64_t* rank) {
  if (text.empty() || text.size() > 18) return false;
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  *rank = value;
  return true;
}

class LineError {
 public:
  LineError(const std::string& path, size_t line) : path_(printable(path, 200)), line_(line) {}
  Error operator()(const std::string& what) const {
    set_error_message("tiktoken %s line %zu: %s", path_.c_str(), line_, what.c_str());
    return Error::InvalidArgument;
  }

 private:
  std::string path_;
  size_t line_;
};

// Reads one non-empty line into `tokens` (indexed by rank; `seen` marks the
// filled ranks).
Error parse_line(std::string_view line, const LineError& fail, std::vector<std::string>* tokens,
                 std::vector<bool>* seen) {
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return fail("no space between token and rank");
  uint64_t rank = 0;
  const std::string_view rank_text = line.substr(space + 1);
  if (!parse_rank(rank_text, &rank)) {
    return fail("rank '" + printable(rank_text) + "' is not a decimal number");
  }
  std::string bytes, why;
  if (!decode_base64(line.substr(0, space), &bytes, &why)) {
    return fail("token '" + printable(line.substr(0, space)) + "' is not base64: " + why);
  }
  if (rank >= tokens->size()) {
    return fail("rank " + std::to_string(rank) + " is not below the number of tokens (" +
                std::to_string(tokens->size()) + "): ranks must be 0..n-1");
  }
  if ((*seen)[rank]) return fail("rank " + std::to_string(rank) + " appears twice");
  (*seen)[rank] = true;
  (*tokens)[rank] = std::move(bytes);
  return Error::Ok;
}

std::vector<std::string_view> split_lines(const std::string& bytes) {
  std::vector<std::string_view> lines;
  const std::string_view all(bytes);
  size_t from = 0;
  while (from <= all.size()) {
    size_t end = all.find('\n', from);
    if (end == std::string_view::npos) end = all.size();
    std::string_view line = all.substr(from, end - from);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    from = end + 1;
  }
  return lines;
}

// ---- The tokenizer ----------------------------------------------------------

class TiktokenTokenizer final : public Tokenizer {
 public:
  Error load(const std::string& bytes, const std::string& path);

  Result<std::vector<uint64_t>> encode(const std::string& text, int8_t bos,
                                       int8_t eos) const override;
  Result<std::string> decode(uint64_t prev, uint64_t token) const override;
  uint64_t vocab_size() const override { return tokens_.size() + specials_.size(); }
  uint64_t bos_tok() const override { return tokens_.size() + kBosIndex; }
  uint64_t eos_tok() const override { return tokens_.size() + kEosIndex; }
  TokenizerFormat format() const override { return TokenizerFormat::Tiktoken; }

 private:
  Error load_ranks(const std::string& bytes, const std::string& path);
  Error encode_ordinary(std::string_view text, std::vector<uint64_t>* ids) const;
  Error encode_piece(std::string_view piece, std::vector<uint64_t>* ids) const;
  uint64_t rank_of(std::string_view bytes) const;

  std::vector<std::string> tokens_;  // bytes, by rank
  std::unordered_map<std::string_view, uint64_t> ranks_;  // views into tokens_
  std::vector<std::string> specials_;
  std::unique_ptr<Regex> pattern_;
  SpecialTokenMatcher special_matcher_;
  std::string path_;
};

Error TiktokenTokenizer::load_ranks(const std::string& bytes, const std::string& path) {
  std::vector<std::string_view> lines = split_lines(bytes);
  size_t count = 0;
  for (const std::string_view line : lines) count += line.empty() ? 0 : 1;
  tokens_.assign(count, std::string());
  std::vector<bool> seen(count, false);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;  // tiktoken's loader skips blank lines
    EMBER_RETURN_IF_ERROR(parse_line(lines[i], LineError(path, i + 1), &tokens_, &seen));
  }
  if (count == 0) {
    set_error_message("tiktoken %s: no tokens", printable(path, 200).c_str());
    return Error::InvalidArgument;
  }
  ranks_.reserve(count);
  for (size_t rank = 0; rank < count; ++rank) {
    const auto inserted = ranks_.emplace(std::string_view(tokens_[rank]), rank);
    if (!inserted.second) {
      set_error_message("tiktoken %s: token '%s' has two ranks (%zu and %zu)",
                        printable(path, 200).c_str(), printable(tokens_[rank]).c_str(),
                        static_cast<size_t>(inserted.first->second), rank);
      return Error::InvalidArgument;
    }
  }
  return Error::Ok;
}

Error TiktokenTokenizer::load(const std::string& bytes, const std::string& path) {
  path_ = path;
  EMBER_RETURN_IF_ERROR(load_ranks(bytes, path));
  specials_ = llama3_special_tokens();
  std::vector<std::pair<std::string, uint64_t>> special_ids;
  for (size_t i = 0; i < specials_.size(); ++i) special_ids.emplace_back(specials_[i], tokens_.size() + i);
  Result<SpecialTokenMatcher> matcher = SpecialTokenMatcher::build(special_ids);
  if (!matcher.ok()) return matcher.error();
  special_matcher_ = std::move(*matcher);
  Result<std::unique_ptr<Regex>> pattern = Regex::compile(kLlama3Pattern, "tiktoken pattern");
  if (!pattern.ok()) return pattern.error();
  pattern_ = std::move(*pattern);
  return Error::Ok;
}

uint64_t TiktokenTokenizer::rank_of(std::string_view bytes) const {
  const auto it = ranks_.find(bytes);
  return it == ranks_.end() ? kNoRank : it->second;
}

Error TiktokenTokenizer::encode_piece(std::string_view piece, std::vector<uint64_t>* ids) const {
  const uint64_t whole = rank_of(piece);
  if (whole != kNoRank) {
    ids->push_back(whole);
    return Error::Ok;
  }
  std::vector<size_t> starts(piece.size());
  for (size_t i = 0; i < piece.size(); ++i) starts[i] = i;
  const std::vector<Span> symbols =
      bpe_merge(piece.size(), std::move(starts), [&](size_t begin, size_t, size_t end) {
        return rank_of(piece.substr(begin, end - begin));
      });
  for (const Span& symbol : symbols) {
    const std::string_view bytes = piece.substr(symbol.begin, symbol.end - symbol.begin);
    const uint64_t rank = rank_of(bytes);
    if (rank == kNoRank) {
      set_error_message("tiktoken %s: '%s' has no rank (the file lacks a single byte)",
                        printable(path_, 200).c_str(), printable(bytes).c_str());
      return Error::InvalidArgument;
    }
    ids->push_back(rank);
  }
  return Error::Ok;
}

Error TiktokenTokenizer::encode_ordinary(std::string_view text, std::vector<uint64_t>* ids) const {
  std::vector<Span> pieces;
  EMBER_RETURN_IF_ERROR(pattern_->split(text, &pieces));
  for (const Span& piece : pieces) {
    EMBER_RETURN_IF_ERROR(encode_piece(text.substr(piece.begin, piece.end - piece.begin), ids));
  }
  return Error::Ok;
}

Result<std::vector<uint64_t>> TiktokenTokenizer::encode(const std::string& text, int8_t bos,
                                                        int8_t eos) const {
  std::vector<uint64_t> ids;
  const Error err = encode_with_specials(
      text, special_matcher_,
      [this](std::string_view part, std::vector<uint64_t>* out) { return encode_ordinary(part, out); },
      &ids);
  if (err != Error::Ok) return err;
  return add_bos_eos(std::move(ids), bos, eos, bos_tok(), eos_tok());
}

Result<std::string> TiktokenTokenizer::decode(uint64_t prev, uint64_t token) const {
  (void)prev;
  if (token < tokens_.size()) return tokens_[token];
  if (token - tokens_.size() < specials_.size()) return specials_[token - tokens_.size()];
  set_error_message("tiktoken: token id %" PRIu64 " is outside the vocabulary (%" PRIu64 " ids)",
                    token, vocab_size());
  return Error::InvalidArgument;
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> make_tiktoken_tokenizer(const std::string& bytes,
                                                           const std::string& path) {
  auto tokenizer = std::make_unique<TiktokenTokenizer>();
  EMBER_RETURN_IF_ERROR(tokenizer->load(bytes, path));
  return std::unique_ptr<Tokenizer>(std::move(tokenizer));
}

}  // namespace ember::llm
