// load_tokenizer() and detect_tokenizer_format(): each format's files are
// recognised and nothing else is taken for them. One TEST group per format.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "extension/llm/tokenizer/reference_cases_test_util.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm {
namespace {

using testing::fixture_path;
using testing::read_fixture;

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string le32(int32_t v) {
  std::string out;
  for (int i = 0; i < 4; ++i) out += static_cast<char>((static_cast<uint32_t>(v) >> (8 * i)) & 0xff);
  return out;
}

// --- SentencePiece ---------------------------------------------------------

TEST(LoadTokenizerSentencePiece, DetectsEveryFixtureModel) {
  for (const char* name : {"sentencepiece_bpe.model", "sentencepiece_unigram.model",
                           "sentencepiece_nobos.model"}) {
    SCOPED_TRACE(name);
    Result<TokenizerFormat> format = detect_tokenizer_format(read_fixture(name));
    ASSERT_TRUE(format.ok()) << last_error_message();
    EXPECT_EQ(*format, TokenizerFormat::SentencePiece);
    Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path(name));
    ASSERT_TRUE(tok.ok()) << last_error_message();
    EXPECT_EQ((*tok)->format(), TokenizerFormat::SentencePiece);
  }
}

TEST(LoadTokenizerSentencePiece, BrokenModelNamesTheFile) {
  // Tags of a ModelProto's first piece, then bytes that are not a proto.
  const std::string path = write_temp("broken.model", std::string("\x0a\x04\x0a\x02\xff\xff", 6));
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find(path), std::string::npos)
      << last_error_message();
}

// --- llama2.c tokenizer.bin ------------------------------------------------

TEST(LoadTokenizerLlama2c, DetectsTheFixture) {
  Result<TokenizerFormat> format = detect_tokenizer_format(read_fixture("llama2c_tokenizer.bin"));
  ASSERT_TRUE(format.ok()) << last_error_message();
  EXPECT_EQ(*format, TokenizerFormat::Llama2c);
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path("llama2c_tokenizer.bin"));
  ASSERT_TRUE(tok.ok()) << last_error_message();
  EXPECT_EQ((*tok)->format(), TokenizerFormat::Llama2c);
}

// vocab_size 266 and 32010 start with the byte 0x0a, like a ModelProto.
TEST(LoadTokenizerLlama2c, VocabSizeStartingWithByte0x0aIsNotSentencePiece) {
  for (const int32_t vocab_size : {266, 32010}) {
    SCOPED_TRACE(vocab_size);
    const std::string header = le32(vocab_size) + le32(1) + le32(2) + le32(10);
    Result<TokenizerFormat> format = detect_tokenizer_format(header + std::string(64, '\0'));
    ASSERT_TRUE(format.ok()) << last_error_message();
    EXPECT_EQ(*format, TokenizerFormat::Llama2c);
  }
}

TEST(LoadTokenizerLlama2c, ImplausibleHeadersAreNoFormat) {
  const std::string cases[] = {
      std::string("\x01\x02\x03\x04\x05", 5),                      // shorter than the header
      le32(0) + le32(0) + le32(0) + le32(1),                       // no pieces
      le32(100) + le32(100) + le32(2) + le32(1),                   // BOS outside
      le32(100) + le32(1) + le32(-2) + le32(1),                    // EOS outside
      le32(100) + le32(1) + le32(2) + le32(-1),                    // negative max length
  };
  for (const std::string& bytes : cases) {
    EXPECT_EQ(detect_tokenizer_format(bytes).error(), Error::InvalidArgument);
  }
}

TEST(LoadTokenizerLlama2c, TruncatedFileNamesTheFileAndThePiece) {
  const std::string bytes = read_fixture("llama2c_tokenizer.bin");
  // The last piece loses its last byte.
  const std::string path = write_temp("cut_tokenizer.bin", bytes.substr(0, bytes.size() - 1));
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  const std::string message = last_error_message();
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("piece 799 "), std::string::npos) << message;
  EXPECT_NE(message.find("runs past the end"), std::string::npos) << message;
}

// --- Hugging Face tokenizer.json --------------------------------------------

TEST(LoadTokenizerHuggingFace, DetectsTheFixtures) {
  for (const char* name : {"bytelevel_gpt2.json", "bytelevel_llama3.json"}) {
    SCOPED_TRACE(name);
    Result<TokenizerFormat> format = detect_tokenizer_format(read_fixture(name));
    ASSERT_TRUE(format.ok()) << last_error_message();
    EXPECT_EQ(*format, TokenizerFormat::HuggingFace);
    Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path(name));
    ASSERT_TRUE(tok.ok()) << last_error_message();
    EXPECT_EQ((*tok)->format(), TokenizerFormat::HuggingFace);
  }
}

TEST(LoadTokenizerHuggingFace, LeadingWhitespaceStillJson) {
  Result<TokenizerFormat> format = detect_tokenizer_format(" \n\t{\"model\": {}}");
  ASSERT_TRUE(format.ok()) << last_error_message();
  EXPECT_EQ(*format, TokenizerFormat::HuggingFace);
}

TEST(LoadTokenizerHuggingFace, BrokenJsonNamesTheFile) {
  const std::string path = write_temp("broken_tokenizer.json", "{\"model\": ");
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find(path), std::string::npos)
      << last_error_message();
}

// --- tiktoken ----------------------------------------------------------------

TEST(LoadTokenizerTiktoken, DetectsTheFixture) {
  Result<TokenizerFormat> format = detect_tokenizer_format(read_fixture("bytelevel_tiktoken.model"));
  ASSERT_TRUE(format.ok()) << last_error_message();
  EXPECT_EQ(*format, TokenizerFormat::Tiktoken);
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path("bytelevel_tiktoken.model"));
  ASSERT_TRUE(tok.ok()) << last_error_message();
  EXPECT_EQ((*tok)->format(), TokenizerFormat::Tiktoken);
}

TEST(LoadTokenizerTiktoken, CrLfFirstLineIsTiktoken) {
  Result<TokenizerFormat> format = detect_tokenizer_format("IQ== 0\r\nIg== 1\r\n");
  ASSERT_TRUE(format.ok()) << last_error_message();
  EXPECT_EQ(*format, TokenizerFormat::Tiktoken);
}

TEST(LoadTokenizerTiktoken, MalformedLaterLineNamesFileAndLine) {
  const std::string path = write_temp("bad_ranks.model", "IQ== 0\nIg== 1\nI*== 2\n");
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  const std::string message = last_error_message();
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
}

}  // namespace
}  // namespace ember::llm
