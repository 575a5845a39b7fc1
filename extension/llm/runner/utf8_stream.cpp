#include "extension/llm/runner/utf8_stream.h"

namespace ember::llm {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// The length of the character a lead byte starts (0: not a lead byte).
size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Whether `c` may follow `lead` as its first continuation byte (the
// overlong, surrogate and beyond-U+10FFFF forms are excluded).
bool valid_second(unsigned char lead, unsigned char c) {
  if (c < 0x80 || c > 0xBF) return false;
  if (lead == 0xE0) return c >= 0xA0;
  if (lead == 0xED) return c <= 0x9F;
  if (lead == 0xF0) return c >= 0x90;
  if (lead == 0xF4) return c <= 0x8F;
  return true;
}

}  // namespace

std::string Utf8Stream::push(const std::string& bytes) {
  pending_ += bytes;
  std::string out;
  size_t i = 0;
  while (i < pending_.size()) {
    const unsigned char lead = static_cast<unsigned char>(pending_[i]);
    const size_t n = sequence_length(lead);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    size_t have = 1;
    bool broken = false;
    while (have < n && i + have < pending_.size()) {
      const unsigned char c = static_cast<unsigned char>(pending_[i + have]);
      const bool ok = have == 1 ? valid_second(lead, c) : (c >= 0x80 && c <= 0xBF);
      if (!ok) {
        broken = true;
        break;
      }
      ++have;
    }
    if (broken) {  // the lead and what followed it so far are not a character
      out += kReplacement;
      i += have;
      continue;
    }
    if (have < n) break;  // wait for the rest of this character
    out.append(pending_, i, n);
    i += n;
  }
  pending_.erase(0, i);
  return out;
}

std::string Utf8Stream::flush() {
  std::string out = push("");
  if (!pending_.empty()) out += kReplacement;
  pending_.clear();
  return out;
}

}  // namespace ember::llm
