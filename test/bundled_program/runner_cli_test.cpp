// executor_runner as a user runs it: exit status and the one error line.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "extension/npy/npy.h"
#include "test/bundled_program/bundled_test_util.h"
#include "test/bundled_program/runner_cli_util.h"

namespace ember::testing {
namespace {

class RunnerCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ember_runner_cli_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_npy_file(const std::string& name, ScalarType type,
                             std::vector<SizesType> shape) {
    size_t numel = 1;
    for (SizesType s : shape) numel *= size_t(s);
    std::vector<uint8_t> data(numel * element_size(type), 0);
    const std::vector<uint8_t> bytes = to_npy(type, shape, data.data());
    return write_file(name, bytes);
  }
  std::string write_file(const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path(name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path(name);
  }
  void expect_clear_failure(const std::string& args, const std::string& needle) {
    const RunResult r = run_runner(args);
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_LT(r.status, 128) << "crashed: " << r.output;
    EXPECT_EQ(count_error_lines(r.output), 1u) << r.output;
    EXPECT_NE(r.output.find(needle), std::string::npos) << r.output;
  }

  std::filesystem::path dir_;
};

const std::string kAddPte = std::string(EMBER_TEST_MODELS_DIR) + "/add/model.pte";

TEST_F(RunnerCli, WrongDtypeNpy) {
  const std::string a = write_npy_file("a.npy", ScalarType::Double, {2, 3});
  const std::string b = write_npy_file("b.npy", ScalarType::Float, {2, 3});
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + b,
                       "dtype Double, the method expects Float");
}

TEST_F(RunnerCli, WrongShapeNpy) {
  const std::string a = write_npy_file("a.npy", ScalarType::Float, {2, 3});
  const std::string b = write_npy_file("b.npy", ScalarType::Float, {3, 2});
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + b,
                       "shape [3,2], the method expects [2,3]");
}

TEST_F(RunnerCli, WrongSizeBin) {
  const std::string a = write_npy_file("a.npy", ScalarType::Float, {2, 3});
  const std::string b = write_file("b.bin", std::vector<uint8_t>(20, 0));
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + b,
                       "20 bytes, the method's Float [2,3] input needs 24");
}

TEST_F(RunnerCli, MissingFiles) {
  const std::string a = write_npy_file("a.npy", ScalarType::Float, {2, 3});
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + path("no.npy"),
                       "cannot open");
  expect_clear_failure("--model_path=" + path("nothing.pte"), "loading model");
  expect_clear_failure("--model_path=" + path("nothing.pte"), "cannot open");
  expect_clear_failure("--model_path=" + bundled_fixture("add") + " --report=" +
                           path("no/such/dir/r.json"),
                       "cannot write report");
}

TEST_F(RunnerCli, DirectoriesAsInputs) {
  // Found by fuzz/runner_inputs_fuzzer: reading a directory used to throw
  // from the stream library and abort.
  std::filesystem::create_directories(path("dir.bin"));
  std::filesystem::create_directories(path("dir.npy"));
  const std::string a = write_npy_file("a.npy", ScalarType::Float, {2, 3});
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + path("dir.bin"),
                       "not a regular file");
  expect_clear_failure("--model_path=" + kAddPte + " --inputs=" + a + "," + path("dir.npy"),
                       "not a regular file");
}

TEST_F(RunnerCli, TestIndexOutOfRange) {
  expect_clear_failure("--model_path=" + bundled_fixture("add") + " --testset_idx=4",
                       "test case 4 of method 'forward' is out of range");
  expect_clear_failure("--model_path=" + kAddPte + " --testset_idx=0",
                       "needs a bundled program");
}

TEST_F(RunnerCli, BadFlagsAndUnknownMethod) {
  expect_clear_failure("--model_path=" + kAddPte + " --loader=tape", "--loader");
  expect_clear_failure("--model_path=" + kAddPte + " --loader=mlock",
                       "file, mmap, mmap_mlock, mmap_mlock_ignore_errors or buffer");
  expect_clear_failure("--model_path=" + bundled_fixture("add") + " --method_name=nope",
                       "nope");
}

TEST_F(RunnerCli, InputsAndOutputFiles) {
  const std::string a = write_npy_file("a.npy", ScalarType::Float, {2, 3});
  std::vector<uint8_t> ones(24);
  const float one = 1.0f;
  for (int i = 0; i < 6; ++i) std::memcpy(ones.data() + 4 * i, &one, 4);
  const std::string b = write_file("b.bin", ones);
  const RunResult r = run_runner("--model_path=" + kAddPte + " --inputs=" + a + "," + b +
                                 " --output_file=" + path("out") + " --num_executions=3");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 execution(s): min"), std::string::npos) << r.output;
  Result<NpyArray> out = read_npy(path("out-0.npy"));
  ASSERT_TRUE(out.ok()) << last_error_message();
  ASSERT_EQ(out->numel(), 6);
  EXPECT_EQ(out->as<float>()[5], 1.0f);
}

TEST_F(RunnerCli, AlteredBundleFailsWithTableAndReport) {
  // Change the last data byte of add.bpte's last expected output: it is
  // the high byte of the last float of test case 3 (suites hold cases in
  // order), flipping its sign/exponent.
  std::vector<uint8_t> bytes = read_bytes(bundled_fixture("add"));
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(bytes, &lb));
  // Find the expected output bytes through the library's own view.
  const std::string report = path("report.json");
  {
    const RunResult ok = run_runner("--model_path=" + bundled_fixture("add") +
                                    " --report=" + report);
    ASSERT_EQ(ok.status, 0) << ok.output;
    std::ifstream in(report);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_TRUE(j["passed"].get<bool>());
    EXPECT_EQ(j["cases"].size(), 4u);
  }
  // Gross change: every byte of the bundle that equals the expected
  // output's first float of case 2 gets +100.
  const float* exp_ptr = nullptr;
  {
    std::vector<OutputReport> reports;
    ASSERT_EQ(run_case(lb, "forward", 2, 1e-5, 1e-8, &reports), Error::Ok);
    Result<Method*> m = lb.module->method("forward");
    const float first = (*m)->get_output(0).to_tensor().const_data_ptr<float>()[0];
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      float f;
      std::memcpy(&f, bytes.data() + i, 4);
      if (f == first) {
        f += 100.0f;
        std::memcpy(bytes.data() + i, &f, 4);
        exp_ptr = &f;
        break;
      }
    }
  }
  ASSERT_NE(exp_ptr, nullptr);
  const std::string altered = write_file("altered.bpte", bytes);
  const RunResult r = run_runner("--model_path=" + altered + " --report=" + report);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(count_error_lines(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find("test case 2 output 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAIL"), std::string::npos) << r.output;
  std::ifstream in(report);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_FALSE(j["passed"].get<bool>());
  EXPECT_FALSE(j["cases"][2]["passed"].get<bool>());
  EXPECT_EQ(j["cases"][2]["outputs"][0]["worst"]["index"].get<int>(), 0);
  EXPECT_EQ(j["cases"][2]["outputs"][0]["outside_tolerance"].get<int>(), 1);
  EXPECT_TRUE(j["cases"][1]["passed"].get<bool>());
}


// Graph inputs/outputs and methods (examples/export/export_io.py,
// test/models/io).
const std::string kIo = std::string(EMBER_TEST_MODELS_DIR) + "/io";

std::string run_inputs(const std::string& fixture, const std::string& method, size_t n) {
  std::string list;
  for (size_t i = 0; i < n; ++i) {
    list += (i ? "," : "") + kIo + "/" + fixture + "/" + method + "/run0/input" +
            std::to_string(i) + ".npy";
  }
  return list;
}

// Upstream's rule: with no --method_name, a .pte runs its first method;
// this program has no forward (kv_forward is first).
TEST_F(RunnerCli, RunsTheFirstMethodWhenNoneIsNamed) {
  const std::string pte = kIo + "/no_forward/model.pte";
  RunResult r = run_runner("--model_path=" + pte);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Method 'kv_forward' outputs:"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("prefill_forward"), std::string::npos) << r.output;
  // --method_name still picks one, and names one that is not there.
  r = run_runner("--model_path=" + pte + " --method_name=prefill_forward --inputs=" +
                 run_inputs("no_forward", "prefill_forward", 1) + " --output_file=" +
                 path("out"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Method 'prefill_forward' outputs:"), std::string::npos);
  Result<NpyArray> got = read_npy(path("out-0.npy"));
  Result<NpyArray> want = read_npy(kIo + "/no_forward/prefill_forward/run0/output0.npy");
  ASSERT_TRUE(got.ok() && want.ok());
  ASSERT_EQ(got->numel(), want->numel());
  for (int64_t i = 0; i < got->numel(); ++i) {
    EXPECT_NEAR(got->as<float>()[i], want->as<float>()[i], 1e-5) << i;
  }
  expect_clear_failure("--model_path=" + pte + " --method_name=forward",
                       "no method named 'forward'");
}

// A .bpte keeps running the methods of its test suites.
TEST_F(RunnerCli, BundleRunsItsTestSuites) {
  const RunResult r = run_runner("--model_path=" + kIo + "/no_forward/model.bpte");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("All 5 outputs of 3 test case(s) verified."), std::string::npos)
      << r.output;
}

// Programs that leave graph inputs and outputs to the application run
// (the runner gives the outputs memory), portable and delegated, .pte and
// .bpte, and give PyTorch's outputs.
TEST_F(RunnerCli, UnplannedInputsAndOutputs) {
  for (const std::string fixture : {"unplanned_portable", "unplanned_xnnpack"}) {
    SCOPED_TRACE(fixture);
    const std::string dir = kIo + "/" + fixture;
    RunResult r = run_runner("--model_path=" + dir + "/model.pte --num_executions=2 --inputs=" +
                             run_inputs(fixture, "forward", 2) + " --output_file=" +
                             path(fixture));
    ASSERT_EQ(r.status, 0) << r.output;
    for (size_t i = 0; i < 2; ++i) {
      Result<NpyArray> got = read_npy(path(fixture) + "-" + std::to_string(i) + ".npy");
      Result<NpyArray> want = read_npy(dir + "/forward/run0/output" + std::to_string(i) + ".npy");
      ASSERT_TRUE(got.ok() && want.ok()) << last_error_message();
      ASSERT_EQ(got->numel(), want->numel());
      for (int64_t j = 0; j < got->numel(); ++j) {
        EXPECT_NEAR(got->as<float>()[j], want->as<float>()[j],
                    1e-6 + 1e-5 * std::fabs(want->as<float>()[j]))
            << "output " << i << " element " << j;
      }
    }
    r = run_runner("--model_path=" + dir + "/model.bpte --num_executions=2");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("All 4 outputs of 2 test case(s) verified."), std::string::npos)
        << r.output;
  }
}

// A program that writes into an input it leaves to the application: each
// execution of each test case must see the bundle's input, so the runner
// copies bundled inputs into memory of its own (binding them to the
// bundle's bytes would change the bundle, or fault on a read-only mapping).
TEST_F(RunnerCli, BundledInputsThatTheProgramWritesStayAsBundled) {
  for (const char* loader : {"mmap", "file", "buffer", "mmap_mlock_ignore_errors"}) {
    SCOPED_TRACE(loader);
    const RunResult r = run_runner("--model_path=" + kIo +
                                   "/unplanned_mutated_input/model.bpte --num_executions=3"
                                   " --loader=" + loader);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("All 4 outputs of 2 test case(s) verified."), std::string::npos)
        << r.output;
  }
}

TEST_F(RunnerCli, PrintOutputModes) {
  const std::string pte = "--model_path=" + kIo + "/unplanned_portable/model.pte";
  RunResult r = run_runner(pte + " --print_output=none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("Output"), std::string::npos) << r.output;
  r = run_runner(pte);  // summary, upstream's default
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Output 1: tensor(Float, sizes=[3, 6]) ["), std::string::npos)
      << r.output;
  r = run_runner(pte + " --print_output=all");
  ASSERT_EQ(r.status, 0) << r.output;
  size_t lines = 0;
  for (size_t pos = 0; (pos = r.output.find("\nOutput[", pos)) != std::string::npos; ++pos) {
    ++lines;
  }
  EXPECT_EQ(lines, 36u) << r.output;  // two [3, 6] outputs, one element a line
  EXPECT_NE(r.output.find("Output[1][17]: (Float) "), std::string::npos) << r.output;
  const RunResult bad = run_runner(pte + " --print_output=some");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--print_output must be none, summary or all"),
            std::string::npos);
  // A .bpte prints its outputs only when asked.
  const std::string bpte = "--model_path=" + kIo + "/no_forward/model.bpte";
  r = run_runner(bpte);
  EXPECT_EQ(r.output.find("outputs:"), std::string::npos) << r.output;
  r = run_runner(bpte + " --print_output=summary");
  EXPECT_NE(r.output.find("Method 'prefill_forward' outputs:"), std::string::npos)
      << r.output;
}

// Upstream's names of the thread and tolerance flags.
TEST_F(RunnerCli, UpstreamFlagAliases) {
  const std::string report = path("r.json");
  RunResult r = run_runner("--model_path=" + bundled_fixture("add") +
                           " --cpu_threads=2 --bundleio_rtol=0.25 --bundleio_atol=0.125"
                           " --report=" + report);
  ASSERT_EQ(r.status, 0) << r.output;
  {
    std::ifstream in(report);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["threads"].get<int>(), 2);
    EXPECT_EQ(j["rtol"].get<double>(), 0.25);
    EXPECT_EQ(j["atol"].get<double>(), 0.125);
  }
  // The old names keep working, and -1 is upstream's "default".
  r = run_runner("--model_path=" + bundled_fixture("add") +
                 " --threads=1 --rtol=0.5 --cpu_threads=1 --report=" + report);
  ASSERT_EQ(r.status, 0) << r.output;
  {
    std::ifstream in(report);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["threads"].get<int>(), 1);
    EXPECT_EQ(j["rtol"].get<double>(), 0.5);
  }
  r = run_runner("--model_path=" + kAddPte + " --cpu_threads=-1");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const std::string conflict :
       {"--threads=1 --cpu_threads=2", "--rtol=0.1 --bundleio_rtol=0.2",
        "--atol=0.1 --bundleio_atol=0.2"}) {
    const RunResult bad = run_runner("--model_path=" + kAddPte + " " + conflict);
    EXPECT_EQ(bad.status, 2) << conflict << ": " << bad.output;
    EXPECT_NE(bad.output.find("are the same setting"), std::string::npos) << bad.output;
  }
  const RunResult bad = run_runner("--model_path=" + kAddPte + " --cpu_threads=-2");
  EXPECT_EQ(bad.status, 2) << bad.output;
}

// A method name read from the file is escaped in the error line: a bundle
// whose test suite names a method with a control byte in it.
TEST_F(RunnerCli, NamesFromTheFileAreEscaped) {
  std::vector<uint8_t> bytes = read_bytes(kIo + "/no_forward/model.bpte");
  AlignedBytes aligned(bytes);
  Result<BundledProgram> b = BundledProgram::from(aligned.data(), aligned.size());
  ASSERT_TRUE(b.ok()) << last_error_message();
  const size_t program_begin =
      size_t(static_cast<const uint8_t*>(b->program_data()) - aligned.data());
  const size_t program_end = program_begin + b->program_size();
  const std::string needle("prefill_forward", 16);  // with its NUL
  size_t patched = 0;
  for (size_t i = 0; i + needle.size() <= bytes.size(); ++i) {
    if ((i < program_begin || i >= program_end) &&
        std::memcmp(&bytes[i], needle.data(), needle.size()) == 0) {
      bytes[i + 7] = 0x1b;  // "prefill\x1b" "forward"
      ++patched;
    }
  }
  ASSERT_EQ(patched, 1u);
  const std::string altered = write_file("escaped.bpte", bytes);
  const RunResult r = run_runner("--model_path=" + altered);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(count_error_lines(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find("prefill\\x1bforward"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
}

// An operator name read from the program is escaped in the error line.
TEST_F(RunnerCli, OperatorNamesFromTheFileAreEscaped) {
  std::vector<uint8_t> bytes = read_bytes(kIo + "/unplanned_portable/model.pte");
  const std::string needle("aten::relu", 11);  // with its NUL
  size_t patched = 0;
  for (size_t i = 0; i + needle.size() <= bytes.size(); ++i) {
    if (std::memcmp(&bytes[i], needle.data(), needle.size()) == 0) {
      bytes[i + 7] = 0x1b;  // "aten::r\x1blu"
      ++patched;
    }
  }
  ASSERT_EQ(patched, 1u);
  const RunResult r = run_runner("--model_path=" + write_file("op.pte", bytes));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(count_error_lines(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find("missing operator(s): aten::r\\x1blu"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ember::testing
