// The tokenizer.json tokenizer against the `tokenizers` library's encodings
// (test/models/tokenizers/bytelevel_{gpt2,llama3}_cases.json, written by
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

Result<std::unique_ptr<Tokenizer>> load_json(const json& spec) {
  return make_hf_tokenizer(spec.dump(), "dir/tokenizer.json");
}

json fixture_json(const char* name) {
  return json::parse(read_fixture(name), nullptr, false);
}

void expect_reference(const std::string& model, const std::string& cases_file) {
  const json ref = read_cases(cases_file);
  Result<std::unique_ptr<Tokenizer>> loaded = make_hf_tokenizer(read_fixture(model), model);
  ASSERT_TRUE(loaded.ok()) << last_error_message();
  const Tokenizer& tok = **loaded;
  EXPECT_EQ(tok.format(), TokenizerFormat::HuggingFace);
  EXPECT_EQ(tok.vocab_size(), ref["vocab_size"].get<uint64_t>());
  EXPECT_EQ(tok.bos_tok(), ref["bos_id"].get<uint64_t>());
  EXPECT_EQ(tok.eos_tok(), ref["eos_id"].get<uint64_t>());
  ASSERT_GT(ref["cases"].size(), 20u);
  for (const json& c : ref["cases"]) {
    SCOPED_TRACE(model + ": " + c["name"].get<std::string>());
    Result<std::vector<uint64_t>> ids = tok.encode(c["text"].get<std::string>(), 0, 0);
    ASSERT_TRUE(ids.ok()) << last_error_message();
    EXPECT_EQ(*ids, c["ids"].get<std::vector<uint64_t>>());
    const auto pieces = c["pieces_hex"].get<std::vector<std::string>>();
    for (size_t i = 0; i < ids->size() && i < pieces.size(); ++i) {
      Result<std::string> bytes = tok.decode(i == 0 ? tok.bos_tok() : (*ids)[i - 1], (*ids)[i]);
      ASSERT_TRUE(bytes.ok()) << last_error_message();
      EXPECT_EQ(to_hex(*bytes), pieces[i]) << "id " << (*ids)[i];
    }
  }
  ASSERT_EQ(ref["decode_hex"].size(), tok.vocab_size());
  for (const auto& item : ref["decode_hex"].items()) {
    Result<std::string> bytes = tok.decode(0, std::stoull(item.key()));
    ASSERT_TRUE(bytes.ok()) << last_error_message();
    EXPECT_EQ(*bytes, from_hex(item.value().get<std::string>())) << "id " << item.key();
  }
}

// GPT-2 style: ByteLevel pre-tokenizer with its regex; merges as pairs.
TEST(HfTokenizer, Gpt2StyleMatchesTokenizers) {
  expect_reference("bytelevel_gpt2.json", "bytelevel_gpt2_cases.json");
}

// Llama 3 style: Split(regex with lookahead) then ByteLevel; merges as
// "a b" strings; five added special tokens.
TEST(HfTokenizer, Llama3StyleMatchesTokenizers) {
  expect_reference("bytelevel_llama3.json", "bytelevel_llama3_cases.json");
}

// The two merge spellings give the same tokenizer.
TEST(HfTokenizer, MergesAsStringsOrPairsAgree) {
  json pairs = fixture_json("bytelevel_gpt2.json");
  json strings = pairs;
  json& merges = strings["model"]["merges"];
  for (json& merge : merges) merge = merge[0].get<std::string>() + " " + merge[1].get<std::string>();
  Result<std::unique_ptr<Tokenizer>> a = load_json(pairs);
  Result<std::unique_ptr<Tokenizer>> b = load_json(strings);
  ASSERT_TRUE(a.ok() && b.ok()) << last_error_message();
  const std::string text = "Don't panic: 42 cafés, 日本語 🙂\n\n  end";
  Result<std::vector<uint64_t>> ids_a = (*a)->encode(text, 0, 0);
  Result<std::vector<uint64_t>> ids_b = (*b)->encode(text, 0, 0);
  ASSERT_TRUE(ids_a.ok() && ids_b.ok());
  EXPECT_EQ(*ids_a, *ids_b);
}

TEST(HfTokenizer, RefusesIdsOutsideTheVocabulary) {
  Result<std::unique_ptr<Tokenizer>> tok = load_json(fixture_json("bytelevel_llama3.json"));
  ASSERT_TRUE(tok.ok()) << last_error_message();
  for (const uint64_t id : {(*tok)->vocab_size(), uint64_t{1} << 40, ~uint64_t{0}}) {
    Result<std::string> bytes = (*tok)->decode(0, id);
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error(), Error::InvalidArgument);
  }
}

TEST(HfTokenizer, RefusesTextThatIsNotUtf8) {
  Result<std::unique_ptr<Tokenizer>> tok = load_json(fixture_json("bytelevel_gpt2.json"));
  ASSERT_TRUE(tok.ok()) << last_error_message();
  Result<std::vector<uint64_t>> ids = (*tok)->encode("caf\xe9", 0, 0);
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.error(), Error::InvalidArgument);
}

// Upstream's BOS/EOS guess from the added tokens' names.
TEST(HfTokenizer, PicksBosAndEosLikeUpstream) {
  struct Case {
    std::vector<std::string> added;  // ids 0, 1, ...
    uint64_t bos, eos;
  };
  const Case cases[] = {
      {{"<|begin_of_text|>", "<|end_of_text|>", "<|end_header_id|>"}, 0, 1},
      {{"<s>", "</s>", "<unk>"}, 0, 0},                 // nothing named: id 0
      {{"<pad>", "<|endoftext|>"}, 1, 1},               // one found stands for both
      {{"<pad>", "<bos>", "<eos>"}, 1, 2},
      {{"<bos>", "<begin>", "<eos>"}, 2, 2},  // two BOS, neither "text": EOS serves
  };
  for (const Case& c : cases) {
    json spec = fixture_json("bytelevel_gpt2.json");
    spec["added_tokens"] = json::array();
    for (size_t i = 0; i < c.added.size(); ++i) {
      spec["added_tokens"].push_back({{"id", i}, {"content", c.added[i]}, {"special", true}});
    }
    Result<std::unique_ptr<Tokenizer>> tok = load_json(spec);
    ASSERT_TRUE(tok.ok()) << last_error_message();
    EXPECT_EQ((*tok)->bos_tok(), c.bos) << c.added[0];
    EXPECT_EQ((*tok)->eos_tok(), c.eos) << c.added[0];
  }
}

// Components this runtime does not implement are refused by name.
TEST(HfTokenizer, UnsupportedComponentsAreNamed) {
  struct Case {
    const char* pointer;
    json value;
    const char* expected;
  };
  const Case cases[] = {
      {"/normalizer", {{"type", "NFC"}}, "normalizer NFC"},
      {"/model/type", "WordPiece", "model WordPiece"},
      {"/model/byte_fallback", true, "byte_fallback"},
      {"/model/dropout", 0.1, "dropout"},
      {"/model/continuing_subword_prefix", "##", "continuing_subword_prefix"},
      {"/decoder", nullptr, "decoder null"},
      {"/decoder", {{"type", "WordPiece"}}, "decoder WordPiece"},
      {"/pre_tokenizer", {{"type", "Whitespace"}}, "pre_tokenizer Whitespace"},
      {"/pre_tokenizer/pretokenizers/0/behavior", "Removed", "Split behavior \"Removed\""},
      {"/pre_tokenizer/pretokenizers/0/invert", true, "invert"},
      {"/pre_tokenizer/pretokenizers/1", {{"type", "Digits"}}, "pre_tokenizer Digits"},
      {"/pre_tokenizer/pretokenizers/0", {{"type", "ByteLevel"}}, "2 ByteLevel steps"},
      {"/added_tokens/0/lstrip", true, "lstrip"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer);
    json spec = fixture_json("bytelevel_llama3.json");
    spec[json::json_pointer(c.pointer)] = c.value;
    Result<std::unique_ptr<Tokenizer>> tok = load_json(spec);
    ASSERT_FALSE(tok.ok());
    EXPECT_EQ(tok.error(), Error::NotSupported);
    const std::string message = last_error_message();
    EXPECT_NE(message.find("dir/tokenizer.json"), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
}

// Malformed files fail with InvalidArgument and a message; nothing throws.
TEST(HfTokenizer, MalformedFilesFailCleanly) {
  const std::string good = read_fixture("bytelevel_llama3.json");
  const std::string texts[] = {good.substr(0, good.size() / 2), "{", "[1, 2]", "{\"model\": 3}",
                               std::string("{\"a\": \"\xff\"}")};
  for (const std::string& text : texts) {
    Result<std::unique_ptr<Tokenizer>> tok = make_hf_tokenizer(text, "bad.json");
    ASSERT_FALSE(tok.ok());
    EXPECT_EQ(tok.error(), Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("bad.json"), std::string::npos);
  }
  struct Case {
    const char* pointer;
    json value;
    const char* expected;
  };
  const Case cases[] = {
      {"/model/vocab", json::array(), "model.vocab is not an object"},
      {"/model/vocab/a", "seven", "model.vocab['a'] is not an id"},
      {"/model/vocab/a", -1, "model.vocab['a'] is not an id"},
      {"/model/vocab/a", uint64_t{1} << 40, "model.vocab['a'] is not an id"},
      {"/model/vocab/not_a_token_yet", 5, "gives id 5 to two tokens"},
      {"/model/merges", "a b", "model.merges is not an array"},
      {"/model/merges/0", 7, "model.merges[0] is neither"},
      {"/model/merges/0", "a b c", "model.merges[0] 'a b c' is not two tokens"},
      {"/model/merges/0", "\x1b[31m x", "names a token not in model.vocab"},
      {"/model/unk_token", "<nope>", "unk_token '<nope>'"},
      {"/added_tokens", json::object(), "added_tokens is not an array"},
      {"/added_tokens/0/id", "zero", "no id"},
      {"/added_tokens/0/content", "", "no non-empty content"},
      {"/added_tokens/0/lstrip", "yes", "lstrip is not true/false"},
      {"/pre_tokenizer/pretokenizers/0/pattern/Regex", "(unclosed", "does not compile"},
      {"/pre_tokenizer/type", 5, "no \"type\" string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer);
    json spec = fixture_json("bytelevel_llama3.json");
    spec[json::json_pointer(c.pointer)] = c.value;
    Result<std::unique_ptr<Tokenizer>> tok = load_json(spec);
    ASSERT_FALSE(tok.ok());
    EXPECT_EQ(tok.error(), Error::InvalidArgument);
    const std::string message = last_error_message();
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << "unescaped byte in: " << message;
  }
}

}  // namespace
}  // namespace ember::llm
