// llama2.c tokenizer.bin against upstream's own encoder
// (test/models/tokenizers/llama2c_cases.json: pytorch_tokenizers'
// Llama2cTokenizer, written by
// examples/export/tokenizer_fixtures_sentencepiece.py), and the reader
// against cut and hostile files.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/reference_cases_test_util.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm {
namespace {

using testing::expect_reference_cases;
using testing::fixture_path;
using testing::read_cases;
using testing::read_fixture;

constexpr char kFixture[] = "llama2c_tokenizer.bin";

std::unique_ptr<Tokenizer> load_fixture() {
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path(kFixture));
  EXPECT_TRUE(tok.ok()) << last_error_message();
  if (!tok.ok()) return nullptr;
  EXPECT_EQ((*tok)->format(), TokenizerFormat::Llama2c);
  return std::move(*tok);
}

// A tokenizer.bin written by hand: little-endian header, then
// (score, length, bytes) per piece.
class Llama2cFile {
 public:
  Llama2cFile(int32_t bos, int32_t eos, int32_t max_token_length) {
    header_ = {0, bos, eos, max_token_length};
  }
  Llama2cFile& piece(const std::string& text, float score) {
    pieces_.emplace_back(text, score);
    return *this;
  }
  std::string bytes() const {
    std::string out;
    int32_t header[4] = {static_cast<int32_t>(pieces_.size()), header_[1], header_[2],
                         header_[3]};
    if (vocab_size_override_) header[0] = *vocab_size_override_;
    for (const int32_t v : header) put(out, v);
    for (const auto& [text, score] : pieces_) {
      uint32_t bits;
      std::memcpy(&bits, &score, sizeof(bits));
      put(out, static_cast<int32_t>(bits));
      put(out, static_cast<int32_t>(text.size()));
      out += text;
    }
    return out;
  }
  Llama2cFile& vocab_size(int32_t v) {
    vocab_size_override_ = std::make_unique<int32_t>(v);
    return *this;
  }

 private:
  static void put(std::string& out, int32_t v) {
    const uint32_t u = static_cast<uint32_t>(v);
    for (int i = 0; i < 4; ++i) out += static_cast<char>((u >> (8 * i)) & 0xff);
  }
  std::vector<int32_t> header_;
  std::vector<std::pair<std::string, float>> pieces_;
  std::unique_ptr<int32_t> vocab_size_override_;
};

// <unk> <s> </s>, then pieces for " ", "a", "b", "ab", " ab" (no byte
// pieces): ids 0..7.
Llama2cFile small_file() {
  Llama2cFile f(1, 2, 5);
  f.piece("<unk>", 0).piece("<s>", 0).piece("</s>", 0);
  f.piece(" ", -1).piece("a", -2).piece("b", -3).piece("ab", -4).piece(" ab", -5);
  return f;
}

std::unique_ptr<Tokenizer> make(const std::string& bytes) {
  Result<std::unique_ptr<Tokenizer>> tok = make_llama2c_tokenizer(bytes, "test.bin");
  EXPECT_TRUE(tok.ok()) << last_error_message();
  return tok.ok() ? std::move(*tok) : nullptr;
}

void expect_refused(const std::string& bytes, const std::string& message_part) {
  Result<std::unique_ptr<Tokenizer>> tok = make_llama2c_tokenizer(bytes, "test.bin");
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("test.bin"), std::string::npos) << message;
  EXPECT_NE(message.find(message_part), std::string::npos) << message;
}

TEST(Llama2cTokenizer, MatchesUpstreamEncoder) {
  const nlohmann::json cases = read_cases("llama2c_cases.json");
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  ASSERT_EQ(cases["models"].size(), 1u);
  expect_reference_cases(*tok, cases["models"][0]);
}

TEST(Llama2cTokenizer, IdsOutsideTheVocabularyAreRefused) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  for (const uint64_t id : {tok->vocab_size(), tok->vocab_size() + 1, uint64_t{1} << 32,
                            UINT64_MAX}) {
    SCOPED_TRACE(id);
    EXPECT_EQ(tok->decode(tok->bos_tok(), id).error(), Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("outside the vocabulary"),
              std::string::npos)
        << last_error_message();
  }
}

TEST(Llama2cTokenizer, EmptyTextAndNegativeCountsAreRefused) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->encode("", 1, 0).error(), Error::InvalidArgument);
  EXPECT_EQ(tok->encode("x", -1, 0).error(), Error::InvalidArgument);
  EXPECT_EQ(tok->encode("x", 0, -1).error(), Error::InvalidArgument);
}

// A NUL is a byte like any other (upstream's C-string loop stops there).
TEST(Llama2cTokenizer, EncodesPastNul) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  Result<std::vector<uint64_t>> ids = tok->encode(std::string("a\0b", 3), 0, 0);
  ASSERT_TRUE(ids.ok()) << last_error_message();
  std::string text;
  for (const uint64_t id : *ids) {
    Result<std::string> piece = tok->decode(tok->bos_tok(), id);
    ASSERT_TRUE(piece.ok());
    text += *piece;
  }
  EXPECT_EQ(text, std::string("a\0b", 3));
}

TEST(Llama2cTokenizer, MergesByScoreOnHandWrittenVocabulary) {
  std::unique_ptr<Tokenizer> tok = make(small_file().bytes());
  ASSERT_NE(tok, nullptr);
  // " " + "a" + "b": " a" is no piece; "ab" (-4) is, then " ab" (-5).
  Result<std::vector<uint64_t>> ids = tok->encode("ab", 1, 1);
  ASSERT_TRUE(ids.ok()) << last_error_message();
  EXPECT_EQ(*ids, (std::vector<uint64_t>{1, 7, 2}));
  // After BOS the leading space goes; elsewhere it stays.
  EXPECT_EQ(*tok->decode(1, 7), "ab");
  EXPECT_EQ(*tok->decode(4, 7), " ab");
  EXPECT_EQ(*tok->decode(4, 1), "<s>");
}

// Upstream's byte fallback is id = byte + 3; a vocabulary too small for
// that is an error, not an out-of-range id.
TEST(Llama2cTokenizer, ByteFallbackOutsideTheVocabularyIsRefused) {
  std::unique_ptr<Tokenizer> tok = make(small_file().bytes());
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->encode("\xc3\xa9", 0, 0).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("byte 0xc3"), std::string::npos)
      << last_error_message();
}

TEST(Llama2cTokenizer, TrailingBytesAfterTheLastPieceAreIgnored) {
  std::unique_ptr<Tokenizer> tok = make(small_file().bytes() + "trailing");
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->vocab_size(), 8u);
}

// Every prefix of a real file is refused with a message, and nothing reads
// past the end (the sanitizer builds would catch it).
TEST(Llama2cTokenizer, EveryTruncationIsRefused) {
  const std::string bytes = read_fixture(kFixture);
  ASSERT_GT(bytes.size(), 16u);
  for (size_t size = 0; size < bytes.size(); ++size) {
    Result<std::unique_ptr<Tokenizer>> tok =
        make_llama2c_tokenizer(bytes.substr(0, size), "cut.bin");
    ASSERT_FALSE(tok.ok()) << size << " bytes loaded";
    ASSERT_EQ(tok.error(), Error::InvalidArgument);
    ASSERT_NE(std::string(last_error_message()).find("cut.bin"), std::string::npos)
        << last_error_message();
  }
}

TEST(Llama2cTokenizer, EveryTruncationOfASmallFileIsRefused) {
  const std::string bytes = small_file().bytes();
  for (size_t size = 0; size < bytes.size(); ++size) {
    EXPECT_FALSE(make_llama2c_tokenizer(bytes.substr(0, size), "cut.bin").ok()) << size;
  }
}

TEST(Llama2cTokenizer, HostileHeadersAreRefused) {
  expect_refused(small_file().vocab_size(INT32_MAX).bytes(), "header declares 2147483647");
  expect_refused(small_file().vocab_size(-1).bytes(), "header declares -1");
  expect_refused(small_file().vocab_size(0).bytes(), "header declares 0");
  expect_refused(small_file().vocab_size(9).bytes(), "piece 8 of 9");
  Llama2cFile bad_bos(8, 2, 5);
  bad_bos.piece("a", 0);
  expect_refused(bad_bos.vocab_size(1).bytes(), "BOS id 8");
  Llama2cFile bad_eos(0, -1, 5);
  bad_eos.piece("a", 0);
  expect_refused(bad_eos.bytes(), "EOS id -1");
  Llama2cFile bad_max(0, 0, -3);
  bad_max.piece("a", 0);
  expect_refused(bad_max.bytes(), "negative max_token_length -3");
}

// Piece lengths: negative, past the end, past max_token_length.
TEST(Llama2cTokenizer, HostileLengthsAreRefused) {
  const std::string good = small_file().bytes();
  const size_t first_length_at = 16 + 4;
  const std::pair<int32_t, const char*> lengths[] = {
      {-1, "length -1 is outside"},
      {INT32_MIN, "is outside"},
      {INT32_MAX, "is outside"},
      {6, "length 6 is outside [0, max_token_length 5]"},
  };
  for (const auto& [length, message] : lengths) {
    std::string bytes = good;
    const uint32_t u = static_cast<uint32_t>(length);
    for (int i = 0; i < 4; ++i) bytes[first_length_at + i] = static_cast<char>(u >> (8 * i));
    SCOPED_TRACE(length);
    expect_refused(bytes, message);
  }
  Llama2cFile long_max(1, 2, INT32_MAX);
  long_max.piece("<unk>", 0).piece("<s>", 0).piece("</s>", 0);
  std::string bytes = long_max.bytes();
  bytes.resize(bytes.size() - 2);
  expect_refused(bytes, "runs past the end");
}

}  // namespace
}  // namespace ember::llm
