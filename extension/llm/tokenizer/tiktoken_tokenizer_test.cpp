// The tiktoken tokenizer against tiktoken's own encodings
// (test/models/tokenizers/bytelevel_tiktoken_cases.json, written by
// examples/export/tokenizer_fixtures_bytelevel.py), and its refusals.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/reference_cases_test_util.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm {
namespace {

using nlohmann::json;
using testing::from_hex;
using testing::read_cases;
using testing::read_fixture;
using testing::to_hex;

std::unique_ptr<Tokenizer> load_fixture() {
  Result<std::unique_ptr<Tokenizer>> tok =
      make_tiktoken_tokenizer(read_fixture("bytelevel_tiktoken.model"), "bytelevel_tiktoken.model");
  EXPECT_TRUE(tok.ok()) << last_error_message();
  return tok.ok() ? std::move(*tok) : nullptr;
}

TEST(TiktokenTokenizer, SizesAndSpecialIdsMatchTheReference) {
  const json ref = read_cases("bytelevel_tiktoken_cases.json");
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->format(), TokenizerFormat::Tiktoken);
  EXPECT_EQ(tok->vocab_size(), ref["vocab_size"].get<uint64_t>());
  EXPECT_EQ(tok->bos_tok(), ref["bos_id"].get<uint64_t>());
  EXPECT_EQ(tok->eos_tok(), ref["eos_id"].get<uint64_t>());
  // Upstream's 256 Llama 3 special tokens follow the ranks, in order.
  const json& specials = ref["special_tokens"];
  ASSERT_EQ(specials.size(), 256u);
  const uint64_t first_special = tok->vocab_size() - 256;
  for (size_t i = 0; i < specials.size(); ++i) {
    Result<std::vector<uint64_t>> ids = tok->encode(specials[i].get<std::string>(), 0, 0);
    ASSERT_TRUE(ids.ok()) << last_error_message();
    EXPECT_EQ(*ids, std::vector<uint64_t>{first_special + i}) << specials[i];
  }
}

TEST(TiktokenTokenizer, EncodesLikeTiktoken) {
  const json ref = read_cases("bytelevel_tiktoken_cases.json");
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  ASSERT_GT(ref["cases"].size(), 20u);
  for (const json& c : ref["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Result<std::vector<uint64_t>> ids = tok->encode(c["text"].get<std::string>(), 0, 0);
    ASSERT_TRUE(ids.ok()) << last_error_message();
    EXPECT_EQ(*ids, c["ids"].get<std::vector<uint64_t>>());
  }
}

TEST(TiktokenTokenizer, DecodesEachIdToTiktokensBytes) {
  const json ref = read_cases("bytelevel_tiktoken_cases.json");
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  for (const json& c : ref["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const auto ids = c["ids"].get<std::vector<uint64_t>>();
    const auto pieces = c["pieces_hex"].get<std::vector<std::string>>();
    ASSERT_EQ(ids.size(), pieces.size());
    uint64_t prev = tok->bos_tok();
    for (size_t i = 0; i < ids.size(); ++i) {
      Result<std::string> bytes = tok->decode(prev, ids[i]);
      ASSERT_TRUE(bytes.ok()) << last_error_message();
      EXPECT_EQ(to_hex(*bytes), pieces[i]) << "id " << ids[i];
      prev = ids[i];
    }
  }
  ASSERT_EQ(ref["decode_hex"].size(), tok->vocab_size());
  for (const auto& item : ref["decode_hex"].items()) {
    Result<std::string> bytes = tok->decode(0, std::stoull(item.key()));
    ASSERT_TRUE(bytes.ok()) << last_error_message();
    EXPECT_EQ(*bytes, from_hex(item.value().get<std::string>())) << "id " << item.key();
  }
}

TEST(TiktokenTokenizer, AddsBosAndEos) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  Result<std::vector<uint64_t>> plain = tok->encode("hi", 0, 0);
  Result<std::vector<uint64_t>> framed = tok->encode("hi", 1, 2);
  ASSERT_TRUE(plain.ok() && framed.ok());
  std::vector<uint64_t> expected = {tok->bos_tok()};
  expected.insert(expected.end(), plain->begin(), plain->end());
  expected.push_back(tok->eos_tok());
  expected.push_back(tok->eos_tok());
  EXPECT_EQ(*framed, expected);
}

TEST(TiktokenTokenizer, RefusesIdsOutsideTheVocabulary) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  for (const uint64_t id : {tok->vocab_size(), tok->vocab_size() + 1, ~uint64_t{0}}) {
    Result<std::string> bytes = tok->decode(0, id);
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error(), Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("outside the vocabulary"), std::string::npos);
  }
}

TEST(TiktokenTokenizer, RefusesTextThatIsNotUtf8) {
  std::unique_ptr<Tokenizer> tok = load_fixture();
  ASSERT_NE(tok, nullptr);
  for (const char* text : {"ab\xff", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"}) {
    Result<std::vector<uint64_t>> ids = tok->encode(text, 0, 0);
    ASSERT_FALSE(ids.ok()) << to_hex(text);
    EXPECT_EQ(ids.error(), Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("not UTF-8"), std::string::npos);
  }
}

// Each malformed file fails with InvalidArgument, naming the file, the line
// and the cause, with the file's bytes escaped.
struct Malformed {
  const char* name;
  std::string bytes;
  const char* expected;  // parts of the message
  const char* expected2;
};

TEST(TiktokenTokenizer, MalformedFilesFailWithTheLine) {
  const Malformed cases[] = {
      {"bad base64 char", "YQ== 0\nY*== 1\n", "line 2", "'*' is not a base64 character"},
      {"bad base64 length", "YQ== 0\nYWJ 1\n", "line 2", "not a positive multiple of 4"},
      {"duplicate rank", "YQ== 0\nYg== 0\n", "line 2", "rank 0 appears twice"},
      {"non-numeric rank", "YQ== 0\nYg== one\n", "line 2", "'one' is not a decimal number"},
      {"negative rank", "YQ== -1\n", "line 1", "'-1' is not a decimal number"},
      {"no space", "YQ==0\n", "line 1", "no space"},
      {"rank gap", "YQ== 0\nYg== 5\n", "line 2", "rank 5 is not below the number of tokens (2)"},
      {"duplicate token", "YQ== 0\nYQ== 1\n", "has two ranks", "'a'"},
      {"escaped bytes", "YQ== 0\nYg== \x1b[31m\n", "line 2", "\\x1b"},
      {"empty", "\n\n", "no tokens", "no tokens"},
  };
  for (const Malformed& c : cases) {
    SCOPED_TRACE(c.name);
    Result<std::unique_ptr<Tokenizer>> tok = make_tiktoken_tokenizer(c.bytes, "dir/bad.model");
    ASSERT_FALSE(tok.ok());
    EXPECT_EQ(tok.error(), Error::InvalidArgument);
    const std::string message = last_error_message();
    EXPECT_NE(message.find("dir/bad.model"), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected2), std::string::npos) << message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << "unescaped byte in: " << message;
  }
}

// A file without every single byte still loads; text needing a missing
// byte fails cleanly instead of emitting a made-up id.
TEST(TiktokenTokenizer, TextNeedingAMissingByteFails) {
  Result<std::unique_ptr<Tokenizer>> tok = make_tiktoken_tokenizer("YQ== 0\nYg== 1\n", "ab.model");
  ASSERT_TRUE(tok.ok()) << last_error_message();
  Result<std::vector<uint64_t>> ok = (*tok)->encode("ab", 0, 0);
  ASSERT_TRUE(ok.ok()) << last_error_message();
  EXPECT_EQ(*ok, (std::vector<uint64_t>{0, 1}));
  Result<std::vector<uint64_t>> missing = (*tok)->encode("abc", 0, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("has no rank"), std::string::npos);
}

// CRLF line ends and blank lines are accepted, as tiktoken's loader does.
TEST(TiktokenTokenizer, AcceptsCrLfAndBlankLines) {
  Result<std::unique_ptr<Tokenizer>> tok =
      make_tiktoken_tokenizer("YQ== 0\r\n\r\nYg== 1\r\nYWI= 2", "crlf.model");
  ASSERT_TRUE(tok.ok()) << last_error_message();
  EXPECT_EQ((*tok)->vocab_size(), 3u + 256u);
  Result<std::vector<uint64_t>> ids = (*tok)->encode("ab", 0, 0);
  ASSERT_TRUE(ids.ok()) << last_error_message();
  EXPECT_EQ(*ids, std::vector<uint64_t>{2});
}

}  // namespace
}  // namespace ember::llm
