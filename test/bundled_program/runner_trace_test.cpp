// executor_runner's tracing flags (examples/executor_runner/runner_trace.h):
// --profile, --etdump_path, --intermediates_dir, --compare_intermediates.
// The golden directories are made here from the runner's own output.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "extension/npy/npy.h"
#include "test/bundled_program/bundled_test_util.h"
#include "test/bundled_program/runner_cli_util.h"

namespace ember::testing {
namespace {

// A portable (undelegated) CNN with batch norm, hardswish and a pooling
// layer: 18 kernel calls.
const std::string kTinyCnn = models_dir() + "/xnnpack/tiny_cnn.portable.bpte";
const std::string kConvnet = models_dir() + "/convnet/model.pte";
// examples/debug/export_with_goldens.py small_cnn: PyTorch's value of
// every instruction (golden/), the program, and the same program with its
// add swapped for a sub (model_fault.pte, fault_info.json), both exported
// with stack traces.
const std::string kSmallCnn = models_dir() + "/debug/small_cnn";

class RunnerTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ember_runner_trace_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static nlohmann::json read_json(const std::string& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in, nullptr, false);
  }

  // Runs test case 0 of kTinyCnn with --intermediates_dir=DIR.
  nlohmann::json make_intermediates(const std::string& dir) {
    const RunResult r =
        run_runner("--model_path=" + kTinyCnn + " --testset_idx=0 --intermediates_dir=" + dir);
    EXPECT_EQ(r.status, 0) << r.output;
    return read_json(dir + "/index.json");
  }

  std::filesystem::path dir_;
};

TEST_F(RunnerTrace, ProfilePrintsOperatorTableAndReport) {
  const RunResult r = run_runner("--model_path=" + kConvnet +
                                 " --profile --num_executions=2 --print_output=none --report=" +
                                 path("r.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Profile of method 'forward': 2 execution(s)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  native_call_convolution.out "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Framework overhead"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ns per kernel instruction"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(the first "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Per instruction:"), std::string::npos) << "needs --verbose";

  const nlohmann::json report = read_json(path("r.json"));
  ASSERT_TRUE(report.contains("profile")) << report.dump();
  const nlohmann::json& method = report["profile"]["methods"][0];
  EXPECT_EQ(method["runs"], 2);
  EXPECT_EQ(method["first_run_included"], true);
  bool found = false;
  double percent = 0;
  for (const nlohmann::json& row : method["operators"]) {
    found = found || row["name"] == "native_call_convolution.out";
    percent += row["percent_of_execute"].get<double>();
  }
  EXPECT_TRUE(found) << method.dump();
  EXPECT_GT(percent, 0.0);
  EXPECT_LE(percent, 100.0);
  // Five instructions, less the linear layer's weight transpose, which a
  // prepared operand replaces (Method::prepare_operands): it does not run.
  EXPECT_EQ(method["instructions"].size(), 4u) << method.dump();
}

TEST_F(RunnerTrace, ProfileVerboseListsInstructions) {
  const RunResult r = run_runner("--model_path=" + kConvnet + " --profile --verbose");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Per instruction:"), std::string::npos) << r.output;
}

// The design's delegate step names ("<kind> <step>: nodes <first>-<last>")
// group the XNNPACK delegate's events.
TEST_F(RunnerTrace, ProfileNamesTheDelegateCall) {
  const RunResult r = run_runner("--model_path=" + models_dir() +
                                 "/xnnpack/tiny_cnn.bpte --testset_idx=0 --profile");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("  delegate XnnpackBackend (c0/i0) "), std::string::npos) << r.output;
  // The delegate's step, indented under its call, and the remainder.
  EXPECT_NE(r.output.find("\n    xnn_runtime 0: nodes 0-10 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n    (outside steps) "), std::string::npos) << r.output;
}

TEST_F(RunnerTrace, EtdumpIsASizePrefixedFlatbufferWithItsIdentifier) {
  const RunResult r = run_runner("--model_path=" + kTinyCnn +
                                 " --testset_idx=0 --dump_outputs --etdump_path=" +
                                 path("run.etdp") + " --debug_buffer_path=" + path("run.bin"));
  ASSERT_EQ(r.status, 0) << r.output;
  const std::vector<uint8_t> etdump = read_bytes(path("run.etdp"));
  ASSERT_GE(etdump.size(), 12u);
  uint32_t size_prefix = 0;
  std::memcpy(&size_prefix, etdump.data(), 4);
  EXPECT_EQ(size_prefix, etdump.size() - 4);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(etdump.data()) + 8, 4), "ED00");
  // The program output (10 floats) is in the debug buffer.
  EXPECT_GE(read_bytes(path("run.bin")).size(), 40u);
}

TEST_F(RunnerTrace, IntermediatesDirHasIndexAndNpyFiles) {
  const nlohmann::json index = make_intermediates(path("out"));
  ASSERT_FALSE(index.is_discarded());
  EXPECT_EQ(index["format"], "ember-intermediates-1");
  EXPECT_EQ(index["program"], "tiny_cnn.portable.bpte");
  const nlohmann::json& entries = index["entries"];
  ASSERT_GE(entries.size(), 18u) << index.dump();
  const nlohmann::json& first = entries[0];
  EXPECT_EQ(first["key"], "forward/c0/i0/o0");
  EXPECT_EQ(first["file"], "forward__c0_i0000__convolution.out__o0.npy");
  EXPECT_EQ(first["operator"], "aten::convolution.out");
  EXPECT_EQ(first["kind"], "kernel");
  EXPECT_EQ(first["dtype"], "float32");
  EXPECT_TRUE(first["stack_frame"].is_null());  // the fixture has no stack traces
  for (const nlohmann::json& e : entries) {
    Result<NpyArray> npy = read_npy(path("out/" + e["file"].get<std::string>()));
    ASSERT_TRUE(npy.ok()) << e.dump();
    std::vector<int64_t> shape(npy->shape.begin(), npy->shape.end());
    EXPECT_EQ(shape, e["shape"].get<std::vector<int64_t>>()) << e.dump();
  }
}

TEST_F(RunnerTrace, CompareWithOwnIntermediatesPasses) {
  make_intermediates(path("golden"));
  const RunResult r = run_runner("--model_path=" + kTinyCnn +
                                 " --testset_idx=0 --compare_intermediates=" +
                                 path("golden"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("No divergence"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
}

TEST_F(RunnerTrace, CompareNamesTheFirstAlteredInstruction) {
  nlohmann::json index = make_intermediates(path("golden"));
  const nlohmann::json& entries = index["entries"];
  ASSERT_GE(entries.size(), 12u);
  // Alter two goldens (the earlier one must be named) and drop a third
  // from the index (listed as "no golden", not a failure).
  for (const size_t i : {size_t(10), size_t(6)}) {
    const std::string file = path("golden/" + entries[i]["file"].get<std::string>());
    Result<NpyArray> npy = read_npy(file);
    ASSERT_TRUE(npy.ok());
    ASSERT_EQ(npy->dtype, ScalarType::Float);
    ASSERT_GT(npy->numel(), 0);
    reinterpret_cast<float*>(npy->data.data())[0] += 1.0f;
    const std::vector<uint8_t> bytes = to_npy(npy->dtype, npy->shape, npy->data.data());
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  const std::string altered_key = entries[6]["key"];
  const std::string dropped_key = entries[2]["key"];
  index["entries"].erase(2);
  std::ofstream(path("golden/index.json")) << index.dump();

  const RunResult r = run_runner("--model_path=" + kTinyCnn +
                                 " --testset_idx=0 --compare_intermediates=" +
                                 path("golden") + " --report=" + path("r.json"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(count_error_lines(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find("First divergence: " + altered_key + " ("), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("2 failed, 1 without golden"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no golden"), std::string::npos) << r.output;

  const nlohmann::json report = read_json(path("r.json"));
  const nlohmann::json& cmp = report["intermediates"]["comparison"];
  EXPECT_EQ(cmp["failed"], 2);
  EXPECT_EQ(cmp["no_golden"], 1);
  EXPECT_EQ(cmp["first_divergence"].get<std::string>().rfind(altered_key, 0), 0u);
  for (const nlohmann::json& row : cmp["rows"]) {
    if (row["key"] == dropped_key) EXPECT_EQ(row["status"], "no golden");
    if (row["key"] == altered_key) {
      EXPECT_EQ(row["status"], "FAIL");
      EXPECT_EQ(row["outside_tolerance"], 1);
    }
  }
}

TEST_F(RunnerTrace, SmallDebugBufferDropsTensorsWithAWarning) {
  const RunResult r = run_runner("--model_path=" + kTinyCnn +
                                 " --testset_idx=0 --debug_buffer_size=4096 --intermediates_dir=" +
                                 path("out"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("warning: the debug buffer (4096 bytes) was full"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("raise --debug_buffer_size"), std::string::npos) << r.output;
}

TEST_F(RunnerTrace, SmallEventBufferDropsEventsWithAWarning) {
  const RunResult r = run_runner("--model_path=" + kTinyCnn +
                                 " --testset_idx=0 --event_buffer_size=4096 --profile --num_executions=3");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("warning: the event buffer (4096 bytes) was full"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("raise --event_buffer_size"), std::string::npos) << r.output;
}

TEST_F(RunnerTrace, BadTraceFlags) {
  const RunResult r = run_runner("--model_path=" + kConvnet + " --debug_buffer_size=-1");
  EXPECT_EQ(r.status, 2) << r.output;
  const RunResult golden = run_runner("--model_path=" + kConvnet +
                                      " --compare_intermediates=" + path("none"));
  EXPECT_EQ(golden.status, 1) << golden.output;
  EXPECT_EQ(count_error_lines(golden.output), 1u) << golden.output;
  EXPECT_NE(golden.output.find("index.json"), std::string::npos) << golden.output;
}

// The seed-003 workflow on a fixture: PyTorch's goldens from the export
// match every instruction of the right program...
TEST_F(RunnerTrace, GoldensFromPyTorchMatchEveryInstruction) {
  const RunResult r = run_runner("--model_path=" + kSmallCnn + "/model.pte --inputs=" +
                                 kSmallCnn + "/input0.npy --compare_intermediates=" + kSmallCnn +
                                 "/golden --rtol=1e-3 --atol=1e-5 --print_output=none");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("11 passed, 0 failed, 0 without golden"), std::string::npos)
      << r.output;
}

// ...and name the planted fault (instruction 4, add made sub) as the first
// divergence, with the model's source line.
TEST_F(RunnerTrace, PlantedFaultIsTheFirstDivergenceWithItsSourceLine) {
  const RunResult r = run_runner(
      "--model_path=" + kSmallCnn + "/model_fault.pte --inputs=" + kSmallCnn +
      "/input0.npy --compare_intermediates=" + kSmallCnn +
      "/golden --rtol=1e-3 --atol=1e-5 --print_output=none --report=" + path("r.json"));
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string first = "First divergence: forward/c0/i4/o0 (aten::sub.out, chain 0 instruction 4)";
  EXPECT_NE(r.output.find(first), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("source: examples/debug/export_with_goldens.py:"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("y = torch.relu(self.conv2(y) + y)"), std::string::npos) << r.output;
  // Everything before it agrees with PyTorch.
  const nlohmann::json report = read_json(path("r.json"));
  for (const nlohmann::json& row : report["intermediates"]["comparison"]["rows"]) {
    if (row["instruction"].get<int>() < 4) EXPECT_EQ(row["status"], "pass") << row.dump();
  }
}

}  // namespace
}  // namespace ember::testing
