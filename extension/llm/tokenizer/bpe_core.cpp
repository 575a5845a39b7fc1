// Shared byte-level BPE machinery (bpe_core.h).
#include "extension/llm/tokenizer/bpe_core.h"

#include <pcre2.h>

#include <algorithm>

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

pcre2_code* as_code(void* code) { return static_cast<pcre2_code*>(code); }

// Characters PCRE2 reads as syntax; a backslash in front of any of them
// makes it literal.
bool is_regex_syntax(char c) {
  return std::string_view("\\^$.|?*+()[]{}#-/ ").find(c) != std::string_view::npos;
}

std::string escape_literal(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (is_regex_syntax(c)) out += '\\';
    out += c;
  }
  return out;
}

// One pcre2_match() from `from`. Falls back from the JIT to the interpreter
// when the JIT stack runs out (long runs of one character class).
int match_once(pcre2_code* code, std::string_view text, size_t from, pcre2_match_data* data) {
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  int rc = pcre2_match(code, subject, text.size(), from, PCRE2_NO_UTF_CHECK, data, nullptr);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
    rc = pcre2_match(code, subject, text.size(), from, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT,
                     data, nullptr);
  }
  return rc;
}

std::string pcre2_reason(int code) {
  PCRE2_UCHAR buffer[256];
  if (pcre2_get_error_message(code, buffer, sizeof(buffer)) < 0) return "unknown PCRE2 error";
  return reinterpret_cast<const char*>(buffer);
}

// The code point of the well-formed sequence of `length` bytes at `p`, or
// -1 when it is malformed (bad continuation, overlong, surrogate, too big).
int32_t decode_sequence(const unsigned char* p, size_t length) {
  static constexpr int32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  static constexpr unsigned char kLeadMask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  int32_t cp = p[0] & kLeadMask[length];
  for (size_t i = 1; i < length; ++i) {
    if ((p[i] & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (p[i] & 0x3f);
  }
  if (cp < kMin[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  return cp;
}

}  // namespace

std::string printable(std::string_view bytes, size_t max_bytes) {
  const size_t n = std::min(bytes.size(), max_bytes);
  std::vector<char> out(n * 4 + 1);
  printable_bytes(bytes.data(), n, out.data(), out.size());
  std::string text(out.data());
  if (n < bytes.size()) text += "...";
  return text;
}

size_t utf8_sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) == 0xc0) return 2;
  if ((lead & 0xf0) == 0xe0) return 3;
  if ((lead & 0xf8) == 0xf0) return 4;
  return 1;
}

Error check_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    const size_t length = utf8_sequence_length(p[i]);
    const bool bad_lead = p[i] >= 0x80 && length == 1;
    if (bad_lead || i + length > text.size() || decode_sequence(p + i, length) < 0) {
      set_error_message("text is not UTF-8: byte offset %zu (%s)", i,
                        printable(text.substr(i, 4)).c_str());
      return Error::InvalidArgument;
    }
    i += length;
  }
  return Error::Ok;
}

// ---- Regex ------------------------------------------------------------------

Result<std::unique_ptr<Regex>> Regex::compile(const std::string& pattern,
                                              const std::string& what) {
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP, &error_code, &error_offset, nullptr);
  if (code == nullptr) {
    set_error_message("%s: regex '%s' does not compile at offset %zu: %s", what.c_str(),
                      printable(pattern, 200).c_str(), static_cast<size_t>(error_offset),
                      pcre2_reason(error_code).c_str());
    return Error::InvalidArgument;
  }
  // Without JIT support (or memory for it) pcre2_match() interprets.
  (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  return std::unique_ptr<Regex>(new Regex(code));
}

Regex::~Regex() { pcre2_code_free(as_code(code_)); }

Result<Span> Regex::find(std::string_view text, size_t from) const {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(as_code(code_), nullptr);
  if (data == nullptr) {
    set_error_message("regex: no memory for match data");
    return Error::MemoryAllocationFailed;
  }
  Span found{std::string_view::npos, std::string_view::npos};
  Error err = Error::Ok;
  while (from <= text.size()) {
    const int rc = match_once(as_code(code_), text, from, data);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      set_error_message("regex match failed at byte %zu: %s", from, pcre2_reason(rc).c_str());
      err = Error::InvalidArgument;
      break;
    }
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
    if (ovector[1] > ovector[0]) {
      found = Span{ovector[0], ovector[1]};
      break;
    }
    // An empty match: look again from the next character.
    if (ovector[0] >= text.size()) break;
    from = ovector[0] + utf8_sequence_length(static_cast<unsigned char>(text[ovector[0]]));
  }
  pcre2_match_data_free(data);
  if (err != Error::Ok) return err;
  return found;
}

Error Regex::split(std::string_view text, std::vector<Span>* pieces) const {
  size_t from = 0;
  while (from < text.size()) {
    Result<Span> match = find(text, from);
    if (!match.ok()) return match.error();
    const size_t begin = match->begin == std::string_view::npos ? text.size() : match->begin;
    if (begin > from) pieces->push_back(Span{from, begin});
    if (begin == text.size()) break;
    pieces->push_back(*match);
    from = match->end;
  }
  return Error::Ok;
}

// ---- Special tokens ---------------------------------------------------------

Result<SpecialTokenMatcher> SpecialTokenMatcher::build(
    const std::vector<std::pair<std::string, uint64_t>>& tokens) {
  SpecialTokenMatcher matcher;
  matcher.by_text_ = tokens;
  std::sort(matcher.by_text_.begin(), matcher.by_text_.end());
  if (tokens.empty()) return matcher;
  // Longest first: PCRE2 takes the first alternative that matches at the
  // leftmost position, so this gives leftmost-longest.
  std::vector<std::string> texts;
  for (const auto& token : tokens) texts.push_back(token.first);
  std::sort(texts.begin(), texts.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  std::string pattern;
  for (const std::string& text : texts) {
    if (!pattern.empty()) pattern += '|';
    pattern += escape_literal(text);
  }
  Result<std::unique_ptr<Regex>> regex = Regex::compile(pattern, "special tokens");
  if (!regex.ok()) return regex.error();
  matcher.regex_ = std::shared_ptr<const Regex>(std::move(*regex));
  return matcher;
}

Result<SpecialTokenMatcher::Match> SpecialTokenMatcher::find(std::string_view text,
                                                            size_t from) const {
  Match none{{std::string_view::npos, std::string_view::npos}, 0};
  if (regex_ == nullptr) return none;
  Result<Span> span = regex_->find(text, from);
  if (!span.ok()) return span.error();
  if (span->begin == std::string_view::npos) return none;
  const std::string key(text.substr(span->begin, span->end - span->begin));
  const auto it = std::lower_bound(by_text_.begin(), by_text_.end(),
                                   std::make_pair(key, uint64_t{0}));
  if (it == by_text_.end() || it->first != key) {
    set_error_message("special token '%s' matched but has no id", printable(key).c_str());
    return Error::Internal;
  }
  return Match{*span, it->second};
}

Error encode_with_specials(
    const std::string& text, const SpecialTokenMatcher& specials,
    const std::function<Error(std::string_view, std::vector<uint64_t>*)>& encode_ordinary,
    std::vector<uint64_t>* ids) {
  EMBER_RETURN_IF_ERROR(check_utf8(text));
  const std::string_view view(text);
  size_t from = 0;
  while (from < view.size()) {
    Result<SpecialTokenMatcher::Match> special = specials.find(view, from);
    if (!special.ok()) return special.error();
    const size_t stop = special->span.begin == std::string_view::npos ? view.size()
                                                                       : special->span.begin;
    if (stop > from) EMBER_RETURN_IF_ERROR(encode_ordinary(view.substr(from, stop - from), ids));
    if (stop == view.size()) break;
    ids->push_back(special->id);
    from = special->span.end;
  }
  return Error::Ok;
}

std::vector<uint64_t> add_bos_eos(std::vector<uint64_t> body, int8_t bos, int8_t eos,
                                  uint64_t bos_id, uint64_t eos_id) {
  std::vector<uint64_t> ids;
  ids.reserve(body.size() + std::max<int>(bos, 0) + std::max<int>(eos, 0));
  for (int i = 0; i < bos; ++i) ids.push_back(bos_id);
  ids.insert(ids.end(), body.begin(), body.end());
  for (int i = 0; i < eos; ++i) ids.push_back(eos_id);
  return ids;
}

// ---- BPE merge --------------------------------------------------------------

std::vector<Span> bpe_merge(size_t piece_size, std::vector<size_t> starts,
                            const std::function<uint64_t(size_t, size_t, size_t)>& rank) {
  // bounds[i] .. bounds[i + 1] is symbol i; ranks[i] joins symbols i, i + 1.
  std::vector<size_t> bounds = std::move(starts);
  bounds.push_back(piece_size);
  std::vector<uint64_t> ranks(bounds.size() > 2 ? bounds.size() - 2 : 0);
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = rank(bounds[i], bounds[i + 1], bounds[i + 2]);
  while (!ranks.empty()) {
    const auto best = std::min_element(ranks.begin(), ranks.end());
    if (*best == kNoRank) break;
    const size_t i = static_cast<size_t>(best - ranks.begin());
    bounds.erase(bounds.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    ranks.erase(ranks.begin() + static_cast<std::ptrdiff_t>(i));
    if (i < ranks.size()) ranks[i] = rank(bounds[i], bounds[i + 1], bounds[i + 2]);
    if (i > 0) ranks[i - 1] = rank(bounds[i - 1], bounds[i], bounds[i + 1]);
  }
  std::vector<Span> symbols;
  symbols.reserve(bounds.size() - 1);
  for (size_t i = 0; i + 1 < bounds.size(); ++i) symbols.push_back(Span{bounds[i], bounds[i + 1]});
  return symbols;
}

// ---- ByteLevel --------------------------------------------------------------

namespace {

bool stands_for_itself(int byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xa1 && byte <= 0xac) ||
         (byte >= 0xae && byte <= 0xff);
}

void append_utf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else {  // the table stays below U+0800
    *out += static_cast<char>(0xc0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace

ByteLevelTable::ByteLevelTable() {
  std::fill(std::begin(byte_of_code_point_), std::end(byte_of_code_point_), int16_t{-1});
  uint32_t next_shifted = 256;
  for (int byte = 0; byte < 256; ++byte) {
    const uint32_t cp = stands_for_itself(byte) ? static_cast<uint32_t>(byte) : next_shifted++;
    append_utf8(cp, &char_of_byte_[byte]);
    byte_of_code_point_[cp] = static_cast<int16_t>(byte);
  }
}

void ByteLevelTable::encode(std::string_view bytes, std::string* out) const {
  for (const char c : bytes) *out += char_of_byte_[static_cast<unsigned char>(c)];
}

std::string ByteLevelTable::decode(std::string_view token) const {
  std::string bytes;
  const auto* p = reinterpret_cast<const unsigned char*>(token.data());
  size_t i = 0;
  while (i < token.size()) {
    const size_t length = utf8_sequence_length(p[i]);
    const int32_t cp = i + length <= token.size() ? decode_sequence(p + i, length) : -1;
    const bool in_table = cp >= 0 && cp < 324 && byte_of_code_point_[cp] >= 0;
    if (!in_table) return std::string(token);
    bytes += static_cast<char>(byte_of_code_point_[cp]);
    i += length;
  }
  return bytes;
}

}  // namespace ember::llm
