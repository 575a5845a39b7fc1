// program_facts() on committed fixtures. The expected XNNPACK node types
// were read independently of Ember: each blob extracted with upstream's
// Python deserializer and decoded with flatc --json against
// schema/xnnpack_graph.fbs; kernel calls and operators from the same
// deserializer; delegate counts also agree with test/models/xnnpack/MANIFEST.
#include "conformance/program_facts.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/core/error_message.h"

namespace ember::conformance {
namespace {

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string model(const std::string& rel) { return std::string(EMBER_TEST_MODELS_DIR) + "/" + rel; }

ProgramFacts facts_of(const std::string& rel) {
  Result<ProgramFacts> facts = program_facts_from_file(model(rel));
  EXPECT_TRUE(facts.ok()) << rel << ": " << last_error_message();
  return facts.ok() ? *facts : ProgramFacts();
}

using Counts = std::map<std::string, uint64_t>;

TEST(ProgramFacts, TinyCnnIsOneXnnpackBlob) {
  const ProgramFacts f = facts_of("xnnpack/tiny_cnn.bpte");
  EXPECT_EQ(f.pte_bytes, 7720u);  // the embedded program, not the .bpte
  EXPECT_EQ(f.kernel_calls, 0u);
  EXPECT_EQ(f.delegate_calls, 1u);
  EXPECT_TRUE(f.undelegated_ops.empty());
  EXPECT_EQ(f.delegate_blobs, 1u);
  EXPECT_EQ(f.delegate_blob_bytes, 3136u);
  EXPECT_EQ(f.constant_bytes, 8u);
  EXPECT_EQ(f.delegated_ops, (Counts{{"XNNAdd", 1},
                                     {"XNNConv2d", 2},
                                     {"XNNDepthwiseConv2d", 1},
                                     {"XNNFullyConnected", 1},
                                     {"XNNGlobalAvgPooling2d", 1},
                                     {"XNNHardswish", 1},
                                     {"XNNMaxPooling2d", 1},
                                     {"XNNStaticReshape", 1},
                                     {"XNNStaticTranspose", 2}}));
  EXPECT_DOUBLE_EQ(f.delegated_percent, 100.0);
  EXPECT_EQ(f.backends, std::vector<std::string>{"XnnpackBackend"});
}

TEST(ProgramFacts, PartialHasTwoBlobsAndOnePortableOp) {
  // MANIFEST: partial delegates=2 portable_ops=aten::cumsum.out
  const ProgramFacts f = facts_of("xnnpack/partial.bpte");
  EXPECT_EQ(f.pte_bytes, 4368u);
  EXPECT_EQ(f.kernel_calls, 1u);
  EXPECT_EQ(f.delegate_calls, 2u);
  EXPECT_EQ(f.undelegated_ops, (Counts{{"aten::cumsum.out", 1}}));
  EXPECT_EQ(f.delegate_blobs, 2u);
  EXPECT_EQ(f.delegate_blob_bytes, 752u + 720u);
  EXPECT_EQ(f.delegated_ops, (Counts{{"XNNFullyConnected", 2}}));
  EXPECT_DOUBLE_EQ(f.delegated_percent, 100.0 * 2 / 3);
  EXPECT_EQ(f.backends, std::vector<std::string>{"XnnpackBackend"});
}

TEST(ProgramFacts, QuantizedTinyCnnCountsConverts) {
  const ProgramFacts f = facts_of("xnnpack/q_tiny_cnn.bpte");
  EXPECT_EQ(f.kernel_calls, 0u);
  EXPECT_EQ(f.delegate_calls, 1u);
  EXPECT_EQ(f.delegate_blobs, 1u);
  EXPECT_EQ(f.delegate_blob_bytes, 5104u);
  EXPECT_EQ(f.delegated_ops, (Counts{{"XNNAdd", 1},
                                     {"XNNClamp", 1},
                                     {"XNNConv2d", 2},
                                     {"XNNConvert", 4},
                                     {"XNNDepthwiseConv2d", 1},
                                     {"XNNFullyConnected", 1},
                                     {"XNNGlobalAvgPooling2d", 1},
                                     {"XNNHardswish", 1},
                                     {"XNNMaxPooling2d", 1},
                                     {"XNNStaticReshape", 1},
                                     {"XNNStaticTranspose", 2}}));
}

TEST(ProgramFacts, TinyAttentionSumsNodesOverFourBlobs) {
  // MANIFEST: tiny_attention delegates=4
  // portable_ops=aten::expand_copy.out,aten::select_copy.int_out
  const ProgramFacts f = facts_of("xnnpack/tiny_attention.bpte");
  EXPECT_EQ(f.delegate_calls, 4u);
  EXPECT_EQ(f.delegate_blobs, 4u);
  EXPECT_EQ(f.delegate_blob_bytes, 1008u + 416u + 1136u + 1552u);
  EXPECT_EQ(f.delegated_ops, (Counts{{"XNNBatchMatrixMultiply", 2},
                                     {"XNNFullyConnected", 2},
                                     {"XNNMultiply", 1},
                                     {"XNNSoftmax", 1},
                                     {"XNNStaticReshape", 8},
                                     {"XNNStaticTranspose", 3}}));
  ASSERT_EQ(f.undelegated_ops.size(), 2u);
  EXPECT_EQ(f.undelegated_ops.count("aten::expand_copy.out"), 1u);
  EXPECT_EQ(f.undelegated_ops.count("aten::select_copy.int_out"), 1u);
}

TEST(ProgramFacts, PortableTwinsHaveNoDelegates) {
  const ProgramFacts partial = facts_of("xnnpack/partial.portable.bpte");
  EXPECT_EQ(partial.pte_bytes, 3280u);
  EXPECT_EQ(partial.kernel_calls, 6u);
  EXPECT_EQ(partial.delegate_calls, 0u);
  EXPECT_EQ(partial.delegate_blobs, 0u);
  EXPECT_EQ(partial.delegate_blob_bytes, 0u);
  EXPECT_TRUE(partial.delegated_ops.empty());
  EXPECT_TRUE(partial.backends.empty());
  EXPECT_EQ(partial.constant_bytes, 512u + 64u + 256u + 16u);
  EXPECT_DOUBLE_EQ(partial.delegated_percent, 0.0);
  uint64_t sum = 0;
  for (const auto& op : partial.undelegated_ops) sum += op.second;
  EXPECT_EQ(sum, partial.kernel_calls);
  EXPECT_EQ(partial.undelegated_ops.count("aten::cumsum.out"), 1u);
  EXPECT_EQ(partial.undelegated_ops.count("aten::addmm.out"), 1u);

  const ProgramFacts cnn = facts_of("xnnpack/tiny_cnn.portable.bpte");
  EXPECT_EQ(cnn.kernel_calls, 18u);
  EXPECT_EQ(cnn.delegate_calls, 0u);
  EXPECT_EQ(cnn.undelegated_ops.size(), 12u);
  EXPECT_EQ(cnn.constant_bytes,
            864u + 32 + 32 + 32 + 288 + 32 + 256 + 32 + 320 + 48 + 16 + 16 + 8);
}

TEST(ProgramFacts, PlainPteCountsEveryMethod) {
  const ProgramFacts add = facts_of("add/model.pte");
  EXPECT_EQ(add.pte_bytes, read_file(model("add/model.pte")).size());
  EXPECT_EQ(add.kernel_calls, 1u);
  EXPECT_EQ(add.undelegated_ops, (Counts{{"aten::add.out", 1}}));
  EXPECT_EQ(add.delegate_blobs, 0u);
  EXPECT_EQ(add.constant_bytes, 0u);

  const ProgramFacts mlp = facts_of("mlp/model.pte");
  EXPECT_EQ(mlp.kernel_calls, 5u);
  EXPECT_EQ(mlp.constant_bytes, 512u + 64u + 256u + 16u);

  // Two methods: forward (4 calls) and double_it (2 calls).
  const ProgramFacts two = facts_of("two_methods/model.pte");
  EXPECT_EQ(two.kernel_calls, 6u);
  EXPECT_EQ(two.undelegated_ops.count("aten::relu.out"), 1u);
  EXPECT_EQ(two.undelegated_ops.count("aten::mul.out"), 1u);
}

TEST(ProgramFacts, OtherBackendsCountCalls) {
  const std::string path = std::string(EMBER_UPSTREAM_PTE_DIR) + "/stories260k_qnn_delegated.pte";
  if (read_file(path).empty()) GTEST_SKIP() << "upstream QNN program not present";
  Result<ProgramFacts> f = program_facts_from_file(path);
  ASSERT_TRUE(f.ok()) << last_error_message();
  EXPECT_GT(f->delegate_calls, 0u);
  EXPECT_EQ(f->backends, std::vector<std::string>{"QnnBackend"});
  EXPECT_EQ(f->delegated_ops, (Counts{{"QnnBackend call", f->delegate_calls}}));
}

TEST(ProgramFacts, GarbageAndTruncatedBytesGiveErrors) {
  const std::vector<char> good = read_file(model("xnnpack/partial.bpte"));
  ASSERT_FALSE(good.empty());
  // Every prefix length class: header only, half, all but one byte.
  for (size_t len : {size_t(0), size_t(4), size_t(8), size_t(64), good.size() / 2,
                     good.size() - 1}) {
    Result<ProgramFacts> f = program_facts(good.data(), len);
    EXPECT_FALSE(f.ok()) << "prefix of " << len << " bytes";
    EXPECT_STRNE(last_error_message(), "") << "prefix of " << len << " bytes";
  }
  std::vector<char> garbage(4096);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = char((i * 131 + 7) & 0xff);
  EXPECT_FALSE(program_facts(garbage.data(), garbage.size()).ok());
  Result<ProgramFacts> missing = program_facts_from_file(model("no/such/file.pte"));
  EXPECT_EQ(missing.error(), Error::AccessFailed);
}

TEST(ProgramFacts, CorruptedBytesNeverCrash) {
  // Flip bytes through the whole file, one at a time in strides; each result
  // is either facts or an error with a message.
  const std::vector<char> good = read_file(model("xnnpack/partial.bpte"));
  ASSERT_FALSE(good.empty());
  size_t errors = 0;
  for (size_t i = 0; i < good.size(); i += 7) {
    std::vector<char> bad = good;
    bad[i] = char(bad[i] ^ 0x5a);
    Result<ProgramFacts> f = program_facts(bad.data(), bad.size());
    if (!f.ok()) {
      ++errors;
      EXPECT_STRNE(last_error_message(), "") << "byte " << i;
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(ProgramFacts, CorruptXnnpackBlobNamesTheDelegate) {
  std::vector<char> bytes = read_file(model("xnnpack/tiny_cnn.bpte"));
  ASSERT_FALSE(bytes.empty());
  // The XNNPACK graph identifier inside the inline blob.
  const std::string id = "XN01";
  auto it = std::search(bytes.begin(), bytes.end(), id.begin(), id.end());
  ASSERT_NE(it, bytes.end());
  *it = 'Q';
  Result<ProgramFacts> f = program_facts(bytes.data(), bytes.size());
  ASSERT_FALSE(f.ok());
  EXPECT_NE(std::string(last_error_message()).find("XnnpackBackend"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::conformance
