// Joins the byte pieces a tokenizer decodes and hands out text only in
// whole UTF-8 characters: a character whose bytes come in two tokens
// (byte-fallback pieces, byte-level BPE) is emitted once it is complete.
// Bytes that cannot start or continue a character become U+FFFD, as a
// decoder replacing errors would, so what is emitted is always valid
// UTF-8.
#pragma once

#include <string>

namespace ember::llm {

class Utf8Stream {
 public:
  // Appends `bytes` and returns the complete characters now available.
  std::string push(const std::string& bytes);
  // What is left at the end (an unfinished character becomes U+FFFD).
  std::string flush();

 private:
  std::string pending_;
};

}  // namespace ember::llm
