// timestamps.h: Whisper's time tokens into timed segments.
#include "extension/llm/runner/timestamps.h"

#include <gtest/gtest.h>

namespace ember::llm {
namespace {

TEST(Timestamps, TimeTokensParse) {
  double t = -1;
  EXPECT_TRUE(parse_time_token("<|0.00|>", &t));
  EXPECT_EQ(t, 0.0);
  EXPECT_TRUE(parse_time_token("<|29.98|>", &t));
  EXPECT_DOUBLE_EQ(t, 29.98);
  for (const char* not_time : {"<|en|>", "<|transcribe|>", "<|1.2|>", "<|.25|>", "<|1.234|>",
                               "1.00", "<|1.00>", "<|a.00|>", "<|1234567.00|>"}) {
    EXPECT_FALSE(parse_time_token(not_time, &t)) << not_time;
  }
  EXPECT_TRUE(is_special_piece("<|en|>"));
  EXPECT_FALSE(is_special_piece(" hello"));
}

TEST(Timestamps, SegmentsBetweenTimes) {
  const std::vector<std::string> pieces = {"<|en|>",     "<|transcribe|>", "<|0.00|>",
                                           " Hello",     " world",         "<|1.20|>",
                                           "<|1.20|>",   " again",         "<|2.50|>",
                                           "<|endoftext|>"};
  const std::vector<TimedSegment> s = timed_segments(pieces);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].start_s, 0.0);
  EXPECT_DOUBLE_EQ(s[0].end_s, 1.2);
  EXPECT_EQ(s[0].text, " Hello world");
  EXPECT_DOUBLE_EQ(s[1].start_s, 1.2);
  EXPECT_DOUBLE_EQ(s[1].end_s, 2.5);
  EXPECT_EQ(s[1].text, " again");
}

TEST(Timestamps, TextWithoutTimesAndAnOpenEnd) {
  // No time tokens (<|notimestamps|>): one segment at 0.
  auto plain = timed_segments({"<|notimestamps|>", " just", " text"});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].text, " just text");
  EXPECT_EQ(plain[0].start_s, 0.0);
  // Cut off by max_new_tokens: the last segment ends where it began.
  auto cut = timed_segments({"<|0.00|>", " a", "<|1.00|>", "<|1.00|>", " b"});
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_DOUBLE_EQ(cut[1].start_s, 1.0);
  EXPECT_DOUBLE_EQ(cut[1].end_s, 1.0);
  // Empty segments are dropped.
  EXPECT_TRUE(timed_segments({"<|0.00|>", "<|1.00|>", " ", "<|2.00|>"}).empty());
}

}  // namespace
}  // namespace ember::llm
