// The session file format (session_file.h) on a made-up layout: a round
// trip, the hash, and a refusal with the right error and message for every
// kind of bad file: every truncation, every changed byte, and each field
// made wrong with the checksum made right again.
#include "extension/llm/runner/session_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

SessionLayout layout() {
  SessionLayout l;
  l.identity = 0x1234567890abcdefull;
  l.buffers = {{5, ScalarType::Float, 96}, {6, ScalarType::Half, 10}};
  l.max_tokens = 16;
  l.vocab_size = 100;
  l.num_logits = 3;
  return l;
}

struct Saved {
  std::vector<uint8_t> a = std::vector<uint8_t>(96), b = std::vector<uint8_t>(10);
  std::vector<uint64_t> tokens{1, 42, 99, 7};
  std::vector<float> logits{0.5f, -1.0f, 3.25f};
  std::vector<uint8_t> file;
  Saved() {
    for (size_t i = 0; i < a.size(); ++i) a[i] = uint8_t(i * 7 + 1);
    for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(200 - i);
    Result<std::vector<uint8_t>> bytes =
        session_bytes(layout(), tokens, logits, {a.data(), b.data()});
    EXPECT_TRUE(bytes.ok()) << last_error_message();
    if (bytes.ok()) file = *bytes;
  }
};

Result<SessionView> parse(const std::vector<uint8_t>& file,
                          const SessionLayout& expected = layout()) {
  return parse_session(Span<const uint8_t>(file.data(), file.size()), expected);
}

void store_le(std::vector<uint8_t>& file, size_t at, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) file[at + i] = uint8_t(value >> (8 * i));
}

// The checksum (the last 8 bytes) made right again after an edit.
void reseal(std::vector<uint8_t>& file) {
  Hash64 h;
  h.update(file.data(), file.size() - 8);
  store_le(file, file.size() - 8, h.digest(), 8);
}

void expect_refused(const std::vector<uint8_t>& file, Error code, const std::string& words,
                    const SessionLayout& expected = layout()) {
  Result<SessionView> view = parse(file, expected);
  ASSERT_FALSE(view.ok()) << "accepted; expected: " << words;
  EXPECT_EQ(view.error(), code) << last_error_message();
  EXPECT_NE(std::string(last_error_message()).find(words), std::string::npos)
      << "message: " << last_error_message() << "\nexpected to contain: " << words;
}

TEST(SessionFile, RoundTrip) {
  Saved s;
  // Header 64, table 2 x 16, tokens 4 x 8, logits 3 x 4 = 140 -> 192;
  // buffers 96 -> 128, 10 -> 64; the checksum 8.
  ASSERT_EQ(s.file.size(), 192u + 128u + 64u + 8u);
  Result<SessionView> view = parse(s.file);
  ASSERT_TRUE(view.ok()) << last_error_message();
  EXPECT_EQ(view->tokens, s.tokens);
  EXPECT_EQ(view->logits, s.logits);
  ASSERT_EQ(view->buffers.size(), 2u);
  EXPECT_EQ(std::memcmp(view->buffers[0], s.a.data(), s.a.size()), 0);
  EXPECT_EQ(std::memcmp(view->buffers[1], s.b.data(), s.b.size()), 0);
  EXPECT_EQ(std::memcmp(s.file.data(), "EMBERSES", 8), 0);
}

TEST(SessionFile, NoTokensAndMaxTokens) {
  Saved s;
  std::vector<uint64_t> none;
  auto empty = session_bytes(layout(), none, {}, {s.a.data(), s.b.data()});
  ASSERT_TRUE(empty.ok());
  Result<SessionView> view = parse(*empty);
  ASSERT_TRUE(view.ok()) << last_error_message();
  EXPECT_TRUE(view->tokens.empty());
  EXPECT_TRUE(view->logits.empty());
  std::vector<uint64_t> full(16, 3);
  auto at_limit = session_bytes(layout(), full, s.logits, {s.a.data(), s.b.data()});
  ASSERT_TRUE(at_limit.ok());
  EXPECT_TRUE(parse(*at_limit).ok()) << last_error_message();
  // The largest session the layout admits is the bound readers check.
  EXPECT_EQ(max_session_bytes(layout()), at_limit->size());
  EXPECT_EQ(max_session_bytes(layout()), 456u);
}

TEST(SessionFile, HashDependsOnBytesNotOnSplits) {
  std::vector<uint8_t> bytes(1000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 31 + i / 7);
  Hash64 whole;
  whole.update(bytes.data(), bytes.size());
  for (size_t split : {0, 1, 7, 31, 32, 33, 500, 999, 1000}) {
    Hash64 parts;
    parts.update(bytes.data(), split);
    parts.update(bytes.data() + split, bytes.size() - split);
    EXPECT_EQ(parts.digest(), whole.digest()) << "split at " << split;
  }
  Hash64 changed;
  bytes[500] ^= 1;
  changed.update(bytes.data(), bytes.size());
  EXPECT_NE(changed.digest(), whole.digest());
  Hash64 shorter;
  shorter.update(bytes.data(), bytes.size() - 1);
  EXPECT_NE(shorter.digest(), whole.digest());
}

TEST(SessionFile, EveryTruncationRefused) {
  Saved s;
  for (size_t n = 0; n < s.file.size(); ++n) {
    const std::vector<uint8_t> cut(s.file.begin(), s.file.begin() + n);
    Result<SessionView> view = parse(cut);
    ASSERT_FALSE(view.ok()) << "a file cut to " << n << " bytes was accepted";
    EXPECT_EQ(view.error(), Error::InvalidArgument) << n << ": " << last_error_message();
  }
  expect_refused({s.file.begin(), s.file.begin() + 63}, Error::InvalidArgument,
                 "the file is 63 bytes, shorter than the 64-byte session header");
  expect_refused({s.file.begin(), s.file.end() - 1}, Error::InvalidArgument,
                 "the header says the file is 392 bytes, it is 391");
  std::vector<uint8_t> longer = s.file;
  longer.push_back(0);
  expect_refused(longer, Error::InvalidArgument,
                 "the header says the file is 392 bytes, it is 393");
}

TEST(SessionFile, EveryChangedByteRefused) {
  Saved s;
  for (size_t i = 0; i < s.file.size(); ++i) {
    std::vector<uint8_t> bad = s.file;
    bad[i] ^= 0x10;
    EXPECT_FALSE(parse(bad).ok()) << "byte " << i << " changed, file accepted";
  }
  std::vector<uint8_t> bad = s.file;
  bad[200] ^= 1;  // in the first buffer's bytes
  expect_refused(bad, Error::InvalidArgument, "the file was changed or damaged");
}

TEST(SessionFile, HeaderFields) {
  Saved s;
  std::vector<uint8_t> f = s.file;
  f[0] = 'X';
  f[1] = 0xff;
  reseal(f);
  expect_refused(f, Error::InvalidArgument,
                 "not a session file: it starts with \"X\\xffBERSES\"");
  f = s.file;
  store_le(f, 8, 2, 4);
  reseal(f);
  expect_refused(f, Error::NotSupported, "session format version 2; this build reads version 1");
  f = s.file;
  store_le(f, 12, 4, 4);
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "session flags 0x4");
  f = s.file;
  store_le(f, 12, 1, 4);  // big-endian buffers, on a little-endian host
  reseal(f);
  expect_refused(f, Error::NotSupported, "the session's buffers are big-endian");
  f = s.file;
  f[60] = 3;
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "session header byte 60 is 0x03");
}

TEST(SessionFile, SizesThatDisagree) {
  Saved s;
  std::vector<uint8_t> f = s.file;
  store_le(f, 32, 12, 8);  // 12 tokens: the buffers move
  reseal(f);
  expect_refused(f, Error::InvalidArgument,
                 "12 tokens, 3 logits and 2 buffers of the sizes the table states make a file "
                 "of 456 bytes; this one is 392");
  f = s.file;
  store_le(f, 32, ~uint64_t(0), 8);
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "need more than 2^64 bytes");
  f = s.file;
  store_le(f, 64 + 8, ~uint64_t(0) - 10, 8);  // buffer 0's size
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "need more than 2^64 bytes");
  f = s.file;
  store_le(f, 40, 1000, 4);
  reseal(f);
  expect_refused(f, Error::InvalidArgument,
                 "the table of 1000 buffers ends at byte 16064, past the file's end (392)");
  f = s.file;
  store_le(f, 40, 0x10000000, 4);
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "the session has 268435456 buffers; at most 65536");
  f = s.file;
  store_le(f, 64 + 4, 99, 4);
  reseal(f);
  expect_refused(f, Error::InvalidArgument, "buffer 0: dtype code 99 is not a dtype");
}

TEST(SessionFile, AnotherProgramOrLayout) {
  Saved s;
  SessionLayout other = layout();
  other.identity ^= 1;
  expect_refused(s.file, Error::InvalidArgument,
                 "the session was saved for another program or method (identity "
                 "1234567890abcdef; this one's is 1234567890abcdee)",
                 other);
  other = layout();
  other.buffers.pop_back();
  expect_refused(s.file, Error::InvalidArgument, "the session has 2 buffers; the method keeps 1",
                 other);
  other = layout();
  other.buffers[1].dtype = ScalarType::BFloat16;
  expect_refused(s.file, Error::InvalidArgument,
                 "buffer 1: value 6, Half, 10 bytes in the session; the method's is value 6, "
                 "BFloat16, 10 bytes",
                 other);
  other = layout();
  other.buffers[0].value_index = 4;
  expect_refused(s.file, Error::InvalidArgument, "buffer 0: value 5, Float, 96 bytes", other);
  other = layout();
  other.buffers[0].nbytes = 64;
  expect_refused(s.file, Error::InvalidArgument, "the method's is value 5, Float, 64 bytes",
                 other);
}

TEST(SessionFile, TokensOutOfBounds) {
  Saved s;
  SessionLayout small = layout();
  small.max_tokens = 3;
  expect_refused(s.file, Error::InvalidArgument,
                 "the session holds 4 tokens; this program's context takes at most 3", small);
  std::vector<uint8_t> f = s.file;
  store_le(f, 64 + 32 + 8 * 2, 100, 8);  // token 2
  reseal(f);
  expect_refused(f, Error::InvalidArgument,
                 "token 2 is id 100, outside the vocabulary (100 ids)");
}

TEST(SessionFile, LogitsCount) {
  Saved s;
  SessionLayout wider = layout();
  wider.num_logits = 4;
  expect_refused(s.file, Error::InvalidArgument,
                 "the session has 3 logits after its 4 tokens; 4 expected", wider);
  auto no_tokens = session_bytes(layout(), {}, s.logits, {s.a.data(), s.b.data()});
  ASSERT_TRUE(no_tokens.ok());
  expect_refused(*no_tokens, Error::InvalidArgument,
                 "the session has 3 logits after its 0 tokens; 0 expected (none without tokens)");
}

TEST(SessionFile, WriterChecksItsArguments) {
  Saved s;
  Result<std::vector<uint8_t>> bytes = session_bytes(layout(), s.tokens, s.logits, {s.a.data()});
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error(), Error::InvalidArgument);
  // A sink that fails part way (a full disk): AccessFailed.
  size_t taken = 0;
  const Error err = write_session(layout(), s.tokens, s.logits, {s.a.data(), s.b.data()},
                                  [&](const void*, size_t n) {
                                    taken += n;
                                    return taken < 250;
                                  });
  EXPECT_EQ(err, Error::AccessFailed);
}

}  // namespace
}  // namespace ember::llm
