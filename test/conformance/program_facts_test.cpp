// program_facts() on committed fixtures. The expected XNNPACK node types
// were read independently of Ember: each blob extracted with upstream's
// Python deserializer and decoded with flatc --json against
// schema/xnnpack_graph.fbs; kernel calls and operators from the same
// deserializer; delegate counts also agree with test/models/xnnpack/MANIFEST.
#include "conformance/program_facts.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// Every XNNPACK fixture against its MANIFEST line, which the exporter wrote
// from upstream's own program object: "delegates=N" (the method's delegate
// entries) and "portable_ops=a,b" (the operators left on kernels, or "-").
TEST(ProgramFacts, EveryXnnpackFixtureMatchesItsManifest) {
  std::ifstream manifest(model("xnnpack/MANIFEST"));
  ASSERT_TRUE(manifest) << "no MANIFEST";
  std::string line;
  size_t checked = 0;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string name, kind, field;
    fields >> name >> kind;
    uint64_t delegates = 0;
    std::set<std::string> portable_ops;
    while (fields >> field) {
      if (field.rfind("delegates=", 0) == 0) delegates = std::stoull(field.substr(10));
      if (field.rfind("portable_ops=", 0) == 0 && field != "portable_ops=-") {
        std::istringstream ops(field.substr(13));
        for (std::string op; std::getline(ops, op, ',');) portable_ops.insert(op);
      }
    }
    const ProgramFacts f = facts_of("xnnpack/" + name + ".bpte");
    EXPECT_EQ(f.delegate_calls, delegates) << name;
    EXPECT_EQ(f.delegate_blobs, delegates) << name;
    std::set<std::string> undelegated;
    for (const auto& op : f.undelegated_ops) undelegated.insert(op.first);
    EXPECT_EQ(undelegated, portable_ops) << name;
    uint64_t nodes = 0;
    for (const auto& op : f.delegated_ops) nodes += op.second;
    EXPECT_EQ(nodes > 0, delegates > 0) << name;
    EXPECT_EQ(f.backends.empty(), delegates == 0) << name;
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

// Every committed program gives facts, and the facts add up.
TEST(ProgramFacts, EveryCommittedFixtureGivesConsistentFacts) {
  size_t checked = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(EMBER_TEST_MODELS_DIR)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".pte" && ext != ".bpte")) continue;
    Result<ProgramFacts> f = program_facts_from_file(entry.path().string());
    ASSERT_TRUE(f.ok()) << entry.path() << ": " << last_error_message();
    uint64_t calls = 0;
    for (const auto& op : f->undelegated_ops) calls += op.second;
    EXPECT_EQ(calls, f->kernel_calls) << entry.path();
    EXPECT_GT(f->pte_bytes, 0u) << entry.path();
    EXPECT_LE(f->delegate_blobs, f->delegate_calls) << entry.path();
    EXPECT_GE(f->delegated_percent, 0.0);
    EXPECT_LE(f->delegated_percent, 100.0);
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

TEST(ProgramFacts, OperatorBaseNames) {
  EXPECT_EQ(operator_base_name("aten::add.out"), "aten::add");
  EXPECT_EQ(operator_base_name("aten::add.Tensor"), "aten::add");
  EXPECT_EQ(operator_base_name("aten.add.Tensor"), "aten::add");
  EXPECT_EQ(operator_base_name("aten::convolution"), "aten::convolution");
  EXPECT_EQ(operator_base_name("aten.convolution"), "aten::convolution");
  EXPECT_EQ(operator_base_name("dim_order_ops::_to_dim_order_copy.out"),
            "dim_order_ops::_to_dim_order_copy");
  EXPECT_EQ(operator_base_name("getitem"), "getitem");
  EXPECT_EQ(by_operator_base_name(Counts{{"aten::add.out", 2}, {"aten::add.Scalar_out", 1}}),
            (Counts{{"aten::add", 3}}));
}

// The exporter's sidecars next to committed fixtures (NAME.aot.json beside
// NAME.bpte, e.g. examples/conformance --fixture_sidecars for three XNNPACK
// fixtures, and the demo backend's): what the program bytes say equals what
// the exporter reported. An XNNPACK graph has its own node count (the
// partitioner adds layout transposes and fuses activations), so delegated
// nodes are compared only as "some"; blobs, bytes and the undelegated
// operators exactly. Skipped while no sidecar is committed.
TEST(ProgramFacts, FixturesAgreeWithTheirSidecars) {
  size_t checked = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(EMBER_TEST_MODELS_DIR)) {
    const std::string path = entry.path().string();
    const std::string suffix = ".aot.json";
    if (path.size() <= suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string stem = path.substr(0, path.size() - suffix.size());
    const std::string bpte = stem + ".bpte";
    if (!std::filesystem::exists(bpte)) continue;
    const std::vector<char> text = read_file(path);
    const nlohmann::json aot = nlohmann::json::parse(text.begin(), text.end());
    Result<ProgramFacts> got = program_facts_from_file(bpte);
    ASSERT_TRUE(got.ok()) << bpte << ": " << last_error_message();
    const ProgramFacts& f = *got;
    EXPECT_EQ(aot.at("delegate_blobs").get<uint64_t>(), f.delegate_blobs) << path;
    EXPECT_EQ(aot.at("delegate_blob_bytes").get<uint64_t>(), f.delegate_blob_bytes) << path;
    EXPECT_EQ(aot.at("undelegated_nodes").get<uint64_t>(), f.kernel_calls) << path;
    Counts exporter_undelegated;
    for (const auto& [op, n] : aot.at("undelegated_ops").items()) {
      exporter_undelegated[op] = n.get<uint64_t>();
    }
    EXPECT_EQ(by_operator_base_name(exporter_undelegated), by_operator_base_name(f.undelegated_ops))
        << path;
    EXPECT_EQ(aot.at("delegated_nodes").get<int64_t>() > 0, !f.delegated_ops.empty()) << path;
    if (aot.contains("pte_bytes")) EXPECT_EQ(aot["pte_bytes"].get<uint64_t>(), f.pte_bytes) << path;
    if (aot.contains("xnnpack_nodes")) {
      Counts nodes;
      for (const auto& [op, n] : aot["xnnpack_nodes"].items()) nodes[op] = n.get<uint64_t>();
      EXPECT_EQ(nodes, f.delegated_ops) << path;
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no committed sidecars (test/models/**/NAME.aot.json)";
}

// A backend other than XNNPACK: each delegate call counts as one delegated
// "<backend id> call". The demo backend's fixtures (test/models/demo, when
// present) against their MANIFEST: "NAME[.portable.bpte|.pte] flow
// delegates=N delegate_calls=M ... portable_ops=a,b".
TEST(ProgramFacts, DemoBackendFixturesMatchTheirManifest) {
  std::ifstream manifest(model("demo/MANIFEST"));
  if (!manifest) GTEST_SKIP() << "no demo backend fixtures";
  std::string line;
  size_t checked = 0;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string name, flow, field;
    fields >> name >> flow;
    if (name.find('.') == std::string::npos) name += ".bpte";
    uint64_t delegates = 0, calls = 0;
    std::set<std::string> portable_ops;
    while (fields >> field) {
      if (field.rfind("delegates=", 0) == 0) delegates = std::stoull(field.substr(10));
      if (field.rfind("delegate_calls=", 0) == 0) calls = std::stoull(field.substr(15));
      if (field.rfind("portable_ops=", 0) == 0 && field != "portable_ops=-") {
        std::istringstream ops(field.substr(13));
        for (std::string op; std::getline(ops, op, ',');) portable_ops.insert(op);
      }
    }
    const ProgramFacts f = facts_of("demo/" + name);
    EXPECT_EQ(f.delegate_calls, calls) << name;
    // Delegates whose processed bytes are identical share one stored blob
    // (tutorial_composed: two delegates, one 82-byte segment, as its sidecar
    // says), so blobs count at most the delegates.
    EXPECT_LE(f.delegate_blobs, delegates) << name;
    EXPECT_EQ(f.delegate_blobs > 0, delegates > 0) << name;
    std::set<std::string> undelegated;
    for (const auto& op : f.undelegated_ops) undelegated.insert(op.first);
    EXPECT_EQ(undelegated, portable_ops) << name;
    if (calls > 0) {
      EXPECT_EQ(f.backends, std::vector<std::string>{"BackendWithCompilerDemo"}) << name;
      EXPECT_EQ(f.delegated_ops, (Counts{{"BackendWithCompilerDemo call", calls}})) << name;
    } else {
      EXPECT_TRUE(f.delegated_ops.empty()) << name;
    }
    ++checked;
  }
  EXPECT_GT(checked, 0u);
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
  // Every byte of each file changed, one at a time, with two masks; each
  // result is either facts or an error with a message.
  for (const char* rel : {"xnnpack/partial.bpte", "xnnpack/tiny_cnn.bpte", "mlp/model.pte"}) {
    const std::vector<char> good = read_file(model(rel));
    ASSERT_FALSE(good.empty()) << rel;
    size_t errors = 0;
    std::vector<char> bad = good;
    for (size_t i = 0; i < good.size(); ++i) {
      for (unsigned char mask : {0x01, 0xff}) {
        bad[i] = char(good[i] ^ mask);
        Result<ProgramFacts> f = program_facts(bad.data(), bad.size());
        if (!f.ok()) {
          ++errors;
          EXPECT_STRNE(last_error_message(), "") << rel << " byte " << i;
        }
      }
      bad[i] = good[i];
    }
    EXPECT_GT(errors, 0u) << rel;
  }
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

// Replaces every occurrence of `from` in `bytes` by `to` (same length).
void replace_all(std::vector<char>* bytes, const std::string& from, const std::string& to) {
  for (auto it = bytes->begin();
       (it = std::search(it, bytes->end(), from.begin(), from.end())) != bytes->end();) {
    it = std::copy(to.begin(), to.end(), it);
  }
}

TEST(ProgramFacts, NamesFromTheFileAreEscaped) {
  // An operator name with a control byte and a backslash (same length).
  std::vector<char> add = read_file(model("add/model.pte"));
  ASSERT_FALSE(add.empty());
  replace_all(&add, "aten::add", "aten::\x01\\d");
  Result<ProgramFacts> f = program_facts(add.data(), add.size());
  ASSERT_TRUE(f.ok()) << last_error_message();
  EXPECT_EQ(f->operators, std::vector<std::string>{"aten::\\x01\\x5cd.out"});
  EXPECT_EQ(f->undelegated_ops, (Counts{{"aten::\\x01\\x5cd.out", 1}}));
  // A backend id with a control byte.
  std::vector<char> demo = read_file(model("demo/addmm_mix.pte"));
  ASSERT_FALSE(demo.empty());
  replace_all(&demo, "BackendWithCompilerDemo", "\x07" "ackendWithCompilerDemo");
  Result<ProgramFacts> d = program_facts(demo.data(), demo.size());
  ASSERT_TRUE(d.ok()) << last_error_message();
  EXPECT_EQ(d->backends, std::vector<std::string>{"\\x07ackendWithCompilerDemo"});
  EXPECT_EQ(d->delegated_ops, (Counts{{"\\x07ackendWithCompilerDemo call", 2}}));
}

// The operator tables' union, against the `op` lines the exporter script
// wrote into each fixture's ops.txt with upstream's deserializer; a .bpte
// gives its embedded program's (the bundled fixtures embed model.pte).
std::vector<std::string> ops_txt_operators(const std::string& dir) {
  std::ifstream in(model(dir + "/ops.txt"));
  std::vector<std::string> ops;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("op ", 0) == 0) ops.push_back(line.substr(3));
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}

TEST(ProgramFacts, OperatorsAreTheOperatorTablesOfEveryMethod) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(EMBER_TEST_MODELS_DIR)) {
    const std::string dir = entry.path().filename().string();
    if (!std::filesystem::exists(entry.path() / "ops.txt")) continue;
    const std::vector<std::string> expected = ops_txt_operators(dir);
    ASSERT_FALSE(expected.empty()) << dir;
    EXPECT_EQ(facts_of(dir + "/model.pte").operators, expected) << dir;
    ++checked;
  }
  EXPECT_GE(checked, 10);
  EXPECT_EQ(facts_of("bundled/two_methods.bpte").operators, ops_txt_operators("two_methods"));
  // Fully delegated: no operator table entries at all.
  EXPECT_TRUE(facts_of("xnnpack/tiny_cnn.bpte").operators.empty());
}

}  // namespace
}  // namespace ember::conformance
