#include "extension/llm/runner/timestamps.h"

#include <cctype>

namespace ember::llm {
namespace {

bool all_digits(const std::string& s, size_t begin, size_t end) {
  if (begin >= end) return false;
  for (size_t i = begin; i < end; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool has_text(const std::string& s) {
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

}  // namespace

bool is_special_piece(const std::string& piece) {
  return piece.size() >= 4 && piece.compare(0, 2, "<|") == 0 &&
         piece.compare(piece.size() - 2, 2, "|>") == 0;
}

bool parse_time_token(const std::string& piece, double* seconds) {
  if (!is_special_piece(piece)) return false;
  const size_t end = piece.size() - 2;  // before "|>"
  const size_t dot = piece.find('.', 2);
  if (dot == std::string::npos || dot + 3 != end || !all_digits(piece, 2, dot) ||
      !all_digits(piece, dot + 1, end) || dot - 2 > 6) {
    return false;
  }
  double whole = 0;
  for (size_t i = 2; i < dot; ++i) whole = whole * 10 + (piece[i] - '0');
  *seconds = whole + (piece[dot + 1] - '0') / 10.0 + (piece[dot + 2] - '0') / 100.0;
  return true;
}

std::vector<TimedSegment> timed_segments(const std::vector<std::string>& pieces) {
  std::vector<TimedSegment> segments;
  TimedSegment open;
  bool is_open = false;
  double last_end = 0;
  const auto close = [&](double end) {
    if (has_text(open.text)) {
      open.end_s = end;
      segments.push_back(open);
    }
    last_end = end;
    is_open = false;
  };
  for (const std::string& piece : pieces) {
    double t = 0;
    if (parse_time_token(piece, &t)) {
      if (is_open && has_text(open.text)) {
        close(t);
      } else {
        open = TimedSegment{t, t, {}};
        is_open = true;
      }
    } else if (!is_special_piece(piece)) {
      if (!is_open) {
        open = TimedSegment{last_end, last_end, {}};
        is_open = true;
      }
      open.text += piece;
    }
  }
  if (is_open) close(open.start_s);
  return segments;
}

}  // namespace ember::llm
