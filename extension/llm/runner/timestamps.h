// Whisper's timestamps: a transcription made with timestamps on (no
// <|notimestamps|> among the forced tokens) interleaves the text with
// time tokens, each a piece "<|S.SS|>" (seconds, two decimals: 0.00 to
// 30.00 in steps of 0.02): <|0.00|> text <|2.40|><|2.40|> more text
// <|5.00|>. These turn the pieces a tokenizer decoded into timed segments.
#pragma once

#include <string>
#include <vector>

namespace ember::llm {

struct TimedSegment {
  double start_s = 0;
  double end_s = 0;  // equal to start_s when the transcription ended first
  std::string text;
};

// Whether `piece` is a time token "<|S.SS|>" (one or more digits, a dot,
// two digits); its value in seconds goes to `seconds`.
bool parse_time_token(const std::string& piece, double* seconds);

// Whether `piece` is another special token "<|...|>" (a language, the
// task, <|endoftext|>): left out of segments.
bool is_special_piece(const std::string& piece);

// The segments of a transcription's pieces, in order: a segment opens at a
// time token and closes at the next one once it has text; text before any
// time token starts at 0 (or the last end), and a segment still open at
// the end closes at its own start. Empty segments are dropped.
std::vector<TimedSegment> timed_segments(const std::vector<std::string>& pieces);

}  // namespace ember::llm
