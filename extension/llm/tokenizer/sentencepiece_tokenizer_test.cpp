// SentencePiece tokenizer against the Python sentencepiece library's
// encodings (test/models/tokenizers/sentencepiece_cases.json, written by
// examples/export/tokenizer_fixtures_sentencepiece.py).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/reference_cases_test_util.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm {
namespace {

using testing::expect_reference_cases;
using testing::fixture_path;
using testing::read_cases;
using testing::read_fixture;

std::unique_ptr<Tokenizer> load_model(const std::string& name) {
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(fixture_path(name));
  EXPECT_TRUE(tok.ok()) << name << ": " << last_error_message();
  if (!tok.ok()) return nullptr;
  EXPECT_EQ((*tok)->format(), TokenizerFormat::SentencePiece);
  return std::move(*tok);
}

void expect_model_matches_reference(const std::string& name) {
  const nlohmann::json cases = read_cases("sentencepiece_cases.json");
  std::unique_ptr<Tokenizer> tok = load_model(name);
  ASSERT_NE(tok, nullptr);
  for (const nlohmann::json& model : cases["models"]) {
    if (model["file"] == name) return expect_reference_cases(*tok, model);
  }
  FAIL() << name << " is not in sentencepiece_cases.json";
}

TEST(SentencePieceTokenizer, BpeWithByteFallbackMatchesReference) {
  expect_model_matches_reference("sentencepiece_bpe.model");
}

TEST(SentencePieceTokenizer, UnigramMatchesReference) {
  expect_model_matches_reference("sentencepiece_unigram.model");
}

TEST(SentencePieceTokenizer, ModelWithoutBosOrEosMatchesReference) {
  expect_model_matches_reference("sentencepiece_nobos.model");
}

TEST(SentencePieceTokenizer, ModelWithoutBosOrEosRefusesToAddThem) {
  std::unique_ptr<Tokenizer> tok = load_model("sentencepiece_nobos.model");
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->bos_tok(), UINT64_MAX);
  EXPECT_EQ(tok->eos_tok(), UINT64_MAX);
  EXPECT_EQ(tok->encode("hello", 1, 0).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("defines neither"), std::string::npos)
      << last_error_message();
  EXPECT_EQ(tok->encode("hello", 0, 1).error(), Error::InvalidArgument);
  EXPECT_TRUE(tok->encode("hello", 0, 0).ok());
}

TEST(SentencePieceTokenizer, EmptyTextIsOnlyBosAndEos) {
  std::unique_ptr<Tokenizer> tok = load_model("sentencepiece_bpe.model");
  ASSERT_NE(tok, nullptr);
  Result<std::vector<uint64_t>> ids = tok->encode("", 1, 1);
  ASSERT_TRUE(ids.ok()) << last_error_message();
  EXPECT_EQ(*ids, (std::vector<uint64_t>{tok->bos_tok(), tok->eos_tok()}));
}

TEST(SentencePieceTokenizer, NegativeBosOrEosCountIsRefused) {
  std::unique_ptr<Tokenizer> tok = load_model("sentencepiece_bpe.model");
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->encode("x", -1, 0).error(), Error::InvalidArgument);
  EXPECT_EQ(tok->encode("x", 0, -1).error(), Error::InvalidArgument);
}

TEST(SentencePieceTokenizer, IdsOutsideTheVocabularyAreRefused) {
  std::unique_ptr<Tokenizer> tok = load_model("sentencepiece_bpe.model");
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

// Every piece decodes: the ids are exactly [0, vocab_size).
TEST(SentencePieceTokenizer, EveryIdDecodes) {
  std::unique_ptr<Tokenizer> tok = load_model("sentencepiece_bpe.model");
  ASSERT_NE(tok, nullptr);
  for (uint64_t id = 0; id < tok->vocab_size(); ++id) {
    EXPECT_TRUE(tok->decode(0, id).ok()) << id << ": " << last_error_message();
  }
}

// Cut or corrupted models: libsentencepiece either refuses them (and the
// message names the file) or loads what is left; nothing crashes.
TEST(SentencePieceTokenizer, TruncatedModelsFailCleanly) {
  const std::string bytes = read_fixture("sentencepiece_bpe.model");
  ASSERT_FALSE(bytes.empty());
  for (size_t size = 0; size < bytes.size(); size += 23) {
    SCOPED_TRACE(size);
    Result<std::unique_ptr<Tokenizer>> tok =
        make_sentencepiece_tokenizer(bytes.substr(0, size), "cut.model");
    if (!tok.ok()) {
      EXPECT_EQ(tok.error(), Error::InvalidArgument);
      EXPECT_NE(std::string(last_error_message()).find("cut.model"), std::string::npos)
          << last_error_message();
      continue;
    }
    EXPECT_TRUE((*tok)->encode("Hello world 日本", 1, 1).ok()) << last_error_message();
  }
}

// fuzz/tokenizer_fuzzer's finding: a unigram model with an empty piece
// makes libsentencepiece's trie builder throw instead of returning a
// status; that throw used to end the process. It is an error now.
TEST(SentencePieceTokenizer, LibraryExceptionBecomesAnError) {
  const std::string path =
      std::string(EMBER_REGRESSION_DIR) + "/crash_tokenizer_sentencepiece_empty_piece.model";
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("zero-length key"), std::string::npos) << message;
  EXPECT_NE(message.find("crash_tokenizer_sentencepiece_empty_piece.model"), std::string::npos)
      << message;
}

TEST(SentencePieceTokenizer, CorruptedModelsFailCleanly) {
  const std::string bytes = read_fixture("sentencepiece_bpe.model");
  ASSERT_FALSE(bytes.empty());
  for (size_t at = 0; at < bytes.size(); at += 31) {
    std::string corrupt = bytes;
    corrupt[at] = static_cast<char>(~corrupt[at]);
    SCOPED_TRACE(at);
    Result<std::unique_ptr<Tokenizer>> tok = make_sentencepiece_tokenizer(corrupt, "bad.model");
    if (!tok.ok()) {
      EXPECT_EQ(tok.error(), Error::InvalidArgument);
      continue;
    }
    Result<std::vector<uint64_t>> ids = (*tok)->encode("Hello world 日本", 1, 1);
    if (!ids.ok()) continue;
    for (const uint64_t id : *ids) (void)(*tok)->decode(0, id);
  }
}

}  // namespace
}  // namespace ember::llm
