// check_charsmaps (sentencepiece_charsmap.h): real maps pass, broken ones
// are refused before libsentencepiece reads outside the model.
#include "extension/llm/tokenizer/sentencepiece_charsmap.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

const std::string kUnigram =
    std::string(EMBER_TOKENIZER_FIXTURES) + "/sentencepiece_unigram.model";

// The committed unigram model carries a 1051-byte user-defined map.
TEST(SentencePieceCharsmap, RealMapPasses) {
  const std::string model = read(kUnigram);
  ASSERT_FALSE(model.empty());
  std::string why;
  EXPECT_TRUE(check_charsmaps(model, &why)) << why;
}

// Every single-byte change inside the map either keeps it safe or is
// refused; none may get past the check and crash the library.
TEST(SentencePieceCharsmap, CorruptedMapsAreRefusedOrSafe) {
  const std::string model = read(kUnigram);
  ASSERT_FALSE(model.empty());
  size_t refused = 0;
  for (size_t at = 0; at < model.size(); at += 7) {
    std::string corrupt = model;
    corrupt[at] = static_cast<char>(corrupt[at] ^ 0x5a);
    std::string why;
    if (!check_charsmaps(corrupt, &why)) {
      ++refused;
      continue;
    }
    Result<std::unique_ptr<Tokenizer>> tok = make_sentencepiece_tokenizer(corrupt, "corrupt");
    if (tok.ok()) (void)(*tok)->encode("Hello world ｈｅｌｌｏ 日本", 1, 1);
  }
  EXPECT_GT(refused, 0u);
}

// fuzz/tokenizer_fuzzer's finding: a map whose trie led libsentencepiece's
// strlen past the model. Refused at load now, with the reason.
TEST(SentencePieceCharsmap, FuzzerFindingIsRefused) {
  const std::string path =
      std::string(EMBER_REGRESSION_DIR) + "/crash_tokenizer_sentencepiece_charsmap.model";
  Result<std::unique_ptr<Tokenizer>> tok = load_tokenizer(path);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("precompiled map"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::llm
