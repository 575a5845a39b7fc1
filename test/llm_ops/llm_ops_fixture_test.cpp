// Upstream's LLM custom operators (llama::custom_sdpa,
// sdpa_with_kv_cache, update_cache, update_cache_with_indices,
// gated_delta_rule and its deprecated name channelwise_gated_delta_rule;
// the quantized_decomposed embeddings and per-token Q/DQ) against
// upstream's outputs (for gated_delta_rule, upstream's recurrence in
// float64, which upstream's runtime matches at the same tolerance): every
// test/models/llm_ops/<name>.bpte
// is loaded once, its test cases are run IN ORDER on that one method
// (the KV-cache fixtures and gated_delta_rule_state_buffer keep their
// cache or state in mutable buffers, so each case is the next step and
// depends on the ones before) and
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
#include "test/op_suite/op_suite_programs.h"

namespace ember::testing {
namespace {

const std::string kDir = EMBER_LLM_OPS_DIR;

// A tolerance the MANIFEST does not state is exact.
double stated(double tolerance) { return tolerance < 0 ? 0.0 : tolerance; }

std::vector<std::string> fixture_names() { return bundled_program_names(kDir); }

class LlmOps : public ::testing::TestWithParam<std::string> {};

TEST_P(LlmOps, TestCasesVerifyInOrder) {
  const std::string name = GetParam();
  static const std::map<std::string, ManifestEntry> manifest = read_manifest(kDir);
  auto found = manifest.find(name);
  ASSERT_NE(found, manifest.end()) << name << " is missing from MANIFEST";

  const AlignedFile file(kDir + "/" + name + ".bpte");
  Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
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
    const Error err = verify_method_outputs(**method, *bundle, k, stated(found->second.rtol),
                                            stated(found->second.atol), reports, 8);
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
  const std::map<std::string, ManifestEntry> manifest = read_manifest(kDir);
  std::string all;
  for (const auto& [name, e] : manifest) all += e.ops + ",";
  for (const char* op : {"llama::custom_sdpa.out", "llama::sdpa_with_kv_cache.out",
                         "llama::update_cache.out", "llama::update_cache_with_indices.out",
                         "llama::gated_delta_rule.out",
                         "llama::channelwise_gated_delta_rule.out",
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
