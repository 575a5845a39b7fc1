// The parts the byte-level BPE tokenizers (tiktoken, Hugging Face
// tokenizer.json) share: a PCRE2 regex compiled once in UTF mode (JIT when
// the library has it), the search for special tokens in text, the BPE merge
// loop, UTF-8 validation and GPT-2's byte <-> character table. Internal to
// extension/llm/tokenizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

// `bytes` escaped for a message (runtime/core's printable_bytes), cut to
// about `max_bytes` input bytes with "..." when longer.
std::string printable(std::string_view bytes, size_t max_bytes = 48);

// Ok when `text` is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF); otherwise InvalidArgument naming the byte offset.
// The regexes below are run without PCRE2's own check, so every subject
// passes through here first.
Error check_utf8(std::string_view text);

// Length of the UTF-8 sequence that starts with `lead` (1 for a byte that
// does not start one); callers pass validated text.
size_t utf8_sequence_length(unsigned char lead);

// A half-open byte range [begin, end) of some string.
struct Span {
  size_t begin;
  size_t end;
};

// A compiled PCRE2 pattern (UTF and UCP modes: \s, \p{L}, \w and case
// folding follow Unicode). Immutable after compile(); find() may be called
// from several threads at once.
class Regex final {
 public:
  // InvalidArgument naming `what` (which file field the pattern came from),
  // the offset PCRE2 stopped at and its reason.
  static Result<std::unique_ptr<Regex>> compile(const std::string& pattern,
                                                const std::string& what);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // The first non-empty match in text[from, text.size()), or a span with
  // begin == npos when there is none. `text` must have passed check_utf8().
  Result<Span> find(std::string_view text, size_t from) const;

  // Splits `text` the way Hugging Face's Split(behavior: Isolated) does:
  // every match is a piece and so is every stretch between matches.
  Error split(std::string_view text, std::vector<Span>* pieces) const;

 private:
  explicit Regex(void* code) : code_(code) {}
  void* code_;  // pcre2_code*
};

// Finds the special tokens of a vocabulary in text: the leftmost one, the
// longest when several start there.
class SpecialTokenMatcher final {
 public:
  // `tokens` pairs each special token's text with its id; empty texts are
  // the caller's to refuse.
  static Result<SpecialTokenMatcher> build(
      const std::vector<std::pair<std::string, uint64_t>>& tokens);

  struct Match {
    Span span;
    uint64_t id;
  };
  // The next special token in text[from, ...), span.begin == npos if none.
  Result<Match> find(std::string_view text, size_t from) const;

 private:
  std::shared_ptr<const Regex> regex_;  // null: no special tokens
  std::vector<std::pair<std::string, uint64_t>> by_text_;  // sorted by text
};

// Encodes `text` as upstream's BPE tokenizers do: split around the special
// tokens `specials` finds, hand every stretch between them to
// `encode_ordinary` (which appends ids), and emit each special token's id.
// Checks that `text` is UTF-8 first.
Error encode_with_specials(
    const std::string& text, const SpecialTokenMatcher& specials,
    const std::function<Error(std::string_view, std::vector<uint64_t>*)>& encode_ordinary,
    std::vector<uint64_t>* ids);

// `body` with `bos` BOS ids in front and `eos` EOS ids behind (negative
// counts add none).
std::vector<uint64_t> add_bos_eos(std::vector<uint64_t> body, int8_t bos, int8_t eos,
                                  uint64_t bos_id, uint64_t eos_id);

constexpr uint64_t kNoRank = std::numeric_limits<uint64_t>::max();

// The BPE merge loop both formats run on one pre-tokenized piece. The piece
// starts as the symbols beginning at `starts` (ascending, starts[0] == 0,
// each running to the next start or to `piece_size`). While some adjacent
// pair has a rank, the pair with the lowest one (the leftmost on a tie) is
// merged. `rank(begin, middle, end)` is the rank of joining [begin, middle)
// with [middle, end), or kNoRank. Returns the final symbols.
std::vector<Span> bpe_merge(size_t piece_size, std::vector<size_t> starts,
                            const std::function<uint64_t(size_t, size_t, size_t)>& rank);

// GPT-2's reversible byte <-> printable character table (ByteLevel
// pre-tokenizer and decoder): bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF stand
// for themselves, the other 68 for U+0100.. in byte order.
class ByteLevelTable final {
 public:
  ByteLevelTable();
  // Appends the UTF-8 of the characters standing for `bytes`.
  void encode(std::string_view bytes, std::string* out) const;
  // The bytes `token` stands for, or its own bytes when one of its
  // characters is outside the table (what tokenizers' ByteLevel decoder
  // does). `token` must be valid UTF-8.
  std::string decode(std::string_view token) const;

 private:
  std::string char_of_byte_[256];
  int16_t byte_of_code_point_[324];  // -1: not in the table
};

}  // namespace ember::llm
