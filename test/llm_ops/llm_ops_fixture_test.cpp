// Upstream's LLM custom operators (llama::custom_sdpa,
// sdpa_with_kv_cache, update_cache, update_cache_with_indices; the
// quantized_decomposed embeddings and per-token Q/DQ) against upstream's
// own outputs: every test/models/llm_ops/<name>.bpte
// is loaded once, its test cases are run IN ORDER on that one method
// (the KV-cache fixtures keep their cache in mutable buffers, so each
// case is the next decoding step and depends on the ones before) and
// every output is verified with the bundled verifier at the tolerance its
// MANIFEST line states (rtol, atol; integer outputs exactly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"

namespace ember::testing {
namespace {

const std::string kDir = EMBER_LLM_OPS_DIR;

struct Entry {
  double rtol = 0;
  double atol = 0;
  std::string ops;
};

std::map<std::string, Entry> read_manifest() {
  std::map<std::string, Entry> entries;
  std::ifstream in(kDir + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, word;
    words >> name;
    Entry e;
    while (words >> word) {
      if (word.rfind("rtol=", 0) == 0) e.rtol = std::stod(word.substr(5));
      if (word.rfind("atol=", 0) == 0) e.atol = std::stod(word.substr(5));
      if (word.rfind("ops=", 0) == 0) e.ops = word.substr(4);
    }
    entries[name] = e;
  }
  return entries;
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  if (!std::filesystem::exists(kDir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    if (entry.path().extension() == ".bpte") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class LlmOps : public ::testing::TestWithParam<std::string> {};

TEST_P(LlmOps, TestCasesVerifyInOrder) {
  const std::string name = GetParam();
  static const std::map<std::string, Entry> manifest = read_manifest();
  auto found = manifest.find(name);
  ASSERT_NE(found, manifest.end()) << name << " is missing from MANIFEST";

  std::ifstream in(kDir + "/" + name + ".bpte", std::ios::binary);
  const std::vector<uint8_t> raw((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
  // 32-byte aligned copy, so the embedded program is aligned.
  std::vector<uint64_t> aligned((raw.size() + 7) / 8 + 4);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(aligned.data());
  bytes = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(bytes) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());

  Result<BundledProgram> bundle = BundledProgram::from(bytes, raw.size());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  Result<std::unique_ptr<Module>> module = Module::load(std::make_unique<BufferDataLoader>(
      bundle->program_data(), bundle->program_size()));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  Result<size_t> cases = bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  ASSERT_GT(*cases, 0u);
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    ASSERT_EQ(load_bundled_input(**method, *bundle, k), Error::Ok) << last_error_message();
    ASSERT_EQ((*method)->execute(), Error::Ok) << last_error_message();
    OutputReport reports[8];
    const Error err = verify_method_outputs(**method, *bundle, k, found->second.rtol,
                                            found->second.atol, reports, 8);
    // A later step depends on this one's cache writes: stop at the first.
    ASSERT_EQ(err, Error::Ok) << last_error_message();
  }
  RecordProperty("test_cases", int(*cases));
}

INSTANTIATE_TEST_SUITE_P(Upstream, LlmOps, ::testing::ValuesIn(fixture_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// Every operator this suite is for appears in some fixture's program.
TEST(LlmOpsManifest, CoversTheOperators) {
  const std::map<std::string, Entry> manifest = read_manifest();
  std::string all;
  for (const auto& [name, e] : manifest) all += e.ops + ",";
  for (const char* op : {"llama::custom_sdpa.out", "llama::sdpa_with_kv_cache.out",
                         "llama::update_cache.out", "llama::update_cache_with_indices.out",
                         "quantized_decomposed::embedding_byte.out",
                         "quantized_decomposed::embedding_byte.dtype_out",
                         "quantized_decomposed::embedding_4bit.out",
                         "quantized_decomposed::embedding_4bit.dtype_out",
                         "quantized_decomposed::embedding_2bit.out",
                         "quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                         "quantized_decomposed::quantize_per_token.out",
                         "quantized_decomposed::dequantize_per_token.out"}) {
    EXPECT_NE(all.find(std::string(op) + ","), std::string::npos) << op;
  }
  EXPECT_EQ(manifest.size(), fixture_names().size());
}

}  // namespace
}  // namespace ember::testing
