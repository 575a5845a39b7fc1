// Test helpers for the reference cases that
// examples/export/tokenizer_fixtures_*.py write under
// EMBER_TOKENIZER_FIXTURES: reading the JSON, hex to bytes, and checking a
// tokenizer against one model's "encode" and "decode" cases. Tests only.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm::testing {

inline std::string fixture_path(const std::string& name) {
  return std::string(EMBER_TOKENIZER_FIXTURES) + "/" + name;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The parsed JSON, or null (with a test failure) when it cannot be read.
inline nlohmann::json read_cases(const std::string& name) {
  nlohmann::json cases = nlohmann::json::parse(read_fixture(name), nullptr, false);
  EXPECT_FALSE(cases.is_discarded()) << name << " is missing or not JSON";
  return cases.is_discarded() ? nlohmann::json() : cases;
}

inline std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

inline std::string to_hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += kDigits[static_cast<unsigned char>(c) >> 4];
    out += kDigits[static_cast<unsigned char>(c) & 15];
  }
  return out;
}

// decode(prev, ids[i]) for each i, prev = ids[i - 1] or BOS for i = 0, as
// the fixtures record them; hex, with "<error>" for a failed call.
inline std::vector<std::string> decode_each(const Tokenizer& tok,
                                            const std::vector<uint64_t>& ids) {
  std::vector<std::string> out;
  uint64_t prev = tok.bos_tok();
  for (const uint64_t id : ids) {
    Result<std::string> piece = tok.decode(prev, id);
    out.push_back(piece.ok() ? to_hex(*piece) : "<error>");
    prev = id;
  }
  return out;
}

// Every encode and decode case of `model` (one entry of "models").
inline void expect_reference_cases(const Tokenizer& tok, const nlohmann::json& model) {
  const std::string file = model.value("file", "?");
  EXPECT_EQ(tok.vocab_size(), model["vocab_size"].get<uint64_t>()) << file;
  EXPECT_EQ(tok.bos_tok(), static_cast<uint64_t>(model["bos"].get<int64_t>())) << file;
  EXPECT_EQ(tok.eos_tok(), static_cast<uint64_t>(model["eos"].get<int64_t>())) << file;
  size_t checked = 0;
  for (const nlohmann::json& c : model["encode"]) {
    const std::string text = from_hex(c["text_hex"].get<std::string>());
    SCOPED_TRACE(file + ": text " + c["text_hex"].get<std::string>() + " bos " +
                 c["bos"].dump() + " eos " + c["eos"].dump());
    Result<std::vector<uint64_t>> ids =
        tok.encode(text, c["bos"].get<int8_t>(), c["eos"].get<int8_t>());
    ASSERT_TRUE(ids.ok()) << last_error_message();
    EXPECT_EQ(*ids, c["ids"].get<std::vector<uint64_t>>());
    EXPECT_EQ(decode_each(tok, c["ids"].get<std::vector<uint64_t>>()),
              c["decoded"].get<std::vector<std::string>>());
    ++checked;
  }
  for (const nlohmann::json& c : model.value("decode", nlohmann::json::array())) {
    SCOPED_TRACE(file + ": " + c["note"].get<std::string>());
    const std::vector<std::string> parts = decode_each(tok, c["ids"].get<std::vector<uint64_t>>());
    EXPECT_EQ(parts, c["decoded"].get<std::vector<std::string>>());
    std::string joined;
    for (const std::string& p : parts) joined += p;
    EXPECT_EQ(joined, c["joined"].get<std::string>());
    ++checked;
  }
  EXPECT_GT(checked, 0u) << file << " has no cases";
}

}  // namespace ember::llm::testing
