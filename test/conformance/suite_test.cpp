// ember_conformance end to end over a small case tree built from committed
// fixtures in a temporary directory:
//
//   xnn/add.bpte                      XNNPACK, no portable twin
//   xnn/partial.bpte (+ .portable)    XNNPACK with a portable twin
//   xnn/unreg.bpte (+ .portable)      partial.bpte with its delegate id made
//                                     one no backend registers: runs the twin
//   xnn/unreg_notwin.bpte             the same without a twin: Skip
//   xnn/MANIFEST                      the fixtures' tolerances
//   golden/partial.pte (+ .portable.pte, _input.bin, _expected_output.bin)
//   golden/add.pte (_input_0.bin, _input_1.bin, _expected_output.bin)
//                                     upstream's golden-artifact layout, made
//                                     from the bundles' first test case
//   planted/{crash,hang,mismatch,xfail,xpass}.bpte   copies of add.bpte
//   manifest.json                     plants the faults, marks xfail/xpass
//
// Planted faults run only with EMBER_CONFORMANCE_TEST_FAULTS=1.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "conformance/case_result.h"
#include "conformance/report.h"
#include "extension/file_util/read_file.h"
#include "schema/bundled_program_schema_generated.h"

namespace {

namespace fs = std::filesystem;
using ember::conformance::CaseResult;

const char* const kUpstreamColumns =
    "Test ID,Test Case,Subtest,Flow,Params,Result,Result Detail,Delegated,Quantize Time (s),"
    "Lower Time (s),Delegated Nodes,Undelegated Nodes,Delegated Ops,Undelegated Ops,"
    "PTE Size (Kb),Output 0 Error Max,Output 0 Error MAE,Output 0 SNR,Output 1 Error Max,"
    "Output 1 Error MAE,Output 1 SNR,Error";

struct SuiteRun {
  int status = -1;
  std::string output;
};

SuiteRun run_suite(const std::string& args, bool faults) {
  const std::string cmd = std::string(faults ? "EMBER_CONFORMANCE_TEST_FAULTS=1 " : "") +
                          EMBER_CONFORMANCE_PATH + " " + args + " 2>&1";
  SuiteRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::vector<CaseResult> read_results(const fs::path& out) {
  std::vector<CaseResult> results;
  std::ifstream in(out / "report.json");
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  std::string error;
  EXPECT_TRUE(ember::conformance::read_json_report(report, &results, &error)) << error;
  return results;
}

void write_bytes(const fs::path& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), std::streamsize(size));
}

// NAME.pte with NAME_input[_i].bin / NAME_expected_output[_i].bin from
// test case 0 of a bundle.
void write_golden(const fs::path& bpte, const fs::path& dir, const std::string& name,
                  bool with_io) {
  auto bytes = ember::read_file(bpte.string());
  ASSERT_TRUE(bytes.ok());
  auto bundle = ember::BundledProgram::from(bytes->data(), bytes->size());
  ASSERT_TRUE(bundle.ok());
  write_bytes(dir / (name + ".pte"), bundle->program_data(), bundle->program_size());
  if (!with_io) return;
  const auto* test_case = bundle->flatbuffer()->method_test_suites()->Get(0)->test_cases()->Get(0);
  auto dump = [&](const auto* values, const std::string& kind) {
    for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
      const auto* t = values->Get(i)->val_as_Tensor();
      ASSERT_NE(t, nullptr);
      const std::string suffix = values->size() == 1 ? "" : "_" + std::to_string(i);
      write_bytes(dir / (name + kind + suffix + ".bin"), t->data()->data(), t->data()->size());
    }
  };
  dump(test_case->inputs(), "_input");
  dump(test_case->expected_outputs(), "_expected_output");
}

// A copy of `from` with every "XnnpackBackend" made "XnnpackBackenX" (same
// length, so the flatbuffer stays valid): a delegate nobody registers.
void copy_with_unknown_backend(const fs::path& from, const fs::path& to) {
  auto bytes = ember::read_file(from.string());
  ASSERT_TRUE(bytes.ok());
  std::string data(bytes->begin(), bytes->end());
  const std::string id = "XnnpackBackend";
  size_t replaced = 0;
  for (size_t at = data.find(id); at != std::string::npos; at = data.find(id, at + 1)) {
    data[at + id.size() - 1] = 'X';
    ++replaced;
  }
  ASSERT_GT(replaced, 0u);
  write_bytes(to, data.data(), data.size());
}

class SuiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/ember_conformance_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    const fs::path models = fs::path(EMBER_TEST_MODELS_DIR) / "xnnpack";
    const fs::path tree = root_ / "tree";
    fs::create_directories(tree / "xnn");
    fs::create_directories(tree / "golden");
    fs::create_directories(tree / "planted");
    for (const char* f : {"add.bpte", "partial.bpte", "partial.portable.bpte", "MANIFEST"}) {
      fs::copy_file(models / f, tree / "xnn" / f);
    }
    for (const char* f : {"unreg.bpte", "unreg_notwin.bpte"}) {
      copy_with_unknown_backend(models / "partial.bpte", tree / "xnn" / f);
    }
    fs::copy_file(models / "partial.portable.bpte", tree / "xnn" / "unreg.portable.bpte");
    write_golden(models / "partial.bpte", tree / "golden", "partial", true);
    write_golden(models / "add.bpte", tree / "golden", "add", true);
    write_golden(models / "partial.portable.bpte", tree / "golden", "partial.portable", false);
    for (const char* f : {"crash", "hang", "mismatch", "xfail", "xpass"}) {
      fs::copy_file(models / "add.bpte", tree / "planted" / (std::string(f) + ".bpte"));
    }
    std::ofstream(root_ / "manifest.json") << R"({"cases": {
      "planted/crash*": {"plant": "crash"},
      "planted/hang*": {"plant": "hang", "timeout_s": 1.5},
      "planted/mismatch*": {"plant": "mismatch"},
      "planted/xfail*": {"plant": "mismatch", "xfail": "planted mismatch"},
      "xpass": {"xfail": "expected to fail, but passes"}
    }})";
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static fs::path root_;
};

fs::path SuiteTest::root_;

const CaseResult* find(const std::vector<CaseResult>& results, const std::string& id,
                       int threads) {
  for (const CaseResult& r : results) {
    if (r.test_id == id && r.config.threads == threads) return &r;
  }
  return nullptr;
}

TEST_F(SuiteTest, PlantedFaultsAreReportedAndTheRestPasses) {
  const fs::path out = root_ / "out_all";
  const SuiteRun run = run_suite("--cases " + (root_ / "tree").string() + " --out " + out.string() +
                                " --threads 1,2 --timeout 20 --manifest " +
                                (root_ / "manifest.json").string(),
                            /*faults=*/true);
  EXPECT_EQ(run.status, 1) << run.output;
  for (const char* f : {"report.csv", "report.json", "junit.xml", "summary.md"}) {
    EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  }
  std::ifstream csv(out / "report.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind(kUpstreamColumns, 0), 0u) << header;

  const std::vector<CaseResult> results = read_results(out);
  // 4 xnn + 2 golden + 5 planted, each at 2 thread counts.
  ASSERT_EQ(results.size(), 22u) << run.output;
  for (int threads : {1, 2}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const CaseResult* crash = find(results, "planted/crash.bpte", threads);
    ASSERT_NE(crash, nullptr);
    EXPECT_EQ(crash->result, "Fail");
    EXPECT_EQ(crash->detail, "Process Crash");
    EXPECT_NE(crash->error.find("SIGSEGV"), std::string::npos) << crash->error;
    const CaseResult* hang = find(results, "planted/hang.bpte", threads);
    ASSERT_NE(hang, nullptr);
    EXPECT_EQ(hang->result, "Fail");
    EXPECT_EQ(hang->detail, "Timeout");
    const CaseResult* mismatch = find(results, "planted/mismatch.bpte", threads);
    ASSERT_NE(mismatch, nullptr);
    EXPECT_EQ(mismatch->result, "Fail");
    EXPECT_EQ(mismatch->detail, "Output Mismatch");
    ASSERT_EQ(mismatch->outputs.size(), 1u);
    EXPECT_FALSE(mismatch->outputs[0].ok);
    EXPECT_NEAR(mismatch->outputs[0].max_abs, 1.0, 1e-3);
    const CaseResult* xfail = find(results, "planted/xfail.bpte", threads);
    ASSERT_NE(xfail, nullptr);
    EXPECT_EQ(xfail->result, "Fail");
    EXPECT_TRUE(xfail->xfail);
    EXPECT_EQ(xfail->detail, "Output Mismatch");
    const CaseResult* xpass = find(results, "planted/xpass.bpte", threads);
    ASSERT_NE(xpass, nullptr);
    EXPECT_EQ(xpass->result, "Fail");
    EXPECT_EQ(xpass->detail, "Unexpected Pass");
    for (const char* id : {"xnn/add.bpte", "xnn/partial.bpte", "golden/partial.pte",
                           "golden/add.pte", "xnn/unreg.bpte"}) {
      const CaseResult* r = find(results, id, threads);
      ASSERT_NE(r, nullptr) << id;
      EXPECT_EQ(r->result, "Pass") << id << ": " << r->detail << " " << r->error;
      // unreg.bpte ran its portable twin.
      EXPECT_EQ(r->delegated, std::string(id) != "xnn/unreg.bpte") << id;
      EXPECT_FALSE(r->outputs.empty()) << id;
      for (const auto& o : r->outputs) EXPECT_TRUE(o.ok) << id;
    }
    const CaseResult* notwin = find(results, "xnn/unreg_notwin.bpte", threads);
    ASSERT_NE(notwin, nullptr);
    EXPECT_EQ(notwin->result, "Skip");
    EXPECT_EQ(notwin->detail, "Backend Not Available");
    EXPECT_NE(notwin->error.find("XnnpackBackenX"), std::string::npos) << notwin->error;
  }
  EXPECT_NE(run.output.find(
                "ember_conformance: 22 results: 10 passed, 8 failed, 2 expected failures, 2 skipped"),
            std::string::npos)
      << run.output;
}

TEST_F(SuiteTest, PlantsNeedTheTestEnvironment) {
  const fs::path out = root_ / "out_noenv";
  const SuiteRun run = run_suite("--cases " + (root_ / "tree" / "planted").string() + " --out " +
                                out.string() + " --manifest " +
                                (root_ / "manifest.json").string(),
                            /*faults=*/false);
  // xfail and xpass both pass without the planted mismatch: Unexpected Pass.
  EXPECT_EQ(run.status, 1) << run.output;
  const std::vector<CaseResult> results = read_results(out);
  ASSERT_EQ(results.size(), 5u);
  for (const char* id : {"crash.bpte", "hang.bpte", "mismatch.bpte"}) {
    const CaseResult* r = find(results, id, 1);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_EQ(r->result, "Pass") << id << ": " << r->error;
  }
}

TEST_F(SuiteTest, PortableBackendsRunTheTwinsOrSkip) {
  const fs::path out = root_ / "out_portable";
  const SuiteRun run = run_suite("--cases " + (root_ / "tree").string() + " --out " + out.string() +
                                " --backends portable --loader file,buffer",
                            /*faults=*/false);
  EXPECT_EQ(run.status, 0) << run.output;
  const std::vector<CaseResult> results = read_results(out);
  size_t passed = 0, skipped = 0;
  for (const CaseResult& r : results) {
    if (r.test_id == "xnn/partial.bpte" || r.test_id == "golden/partial.pte" ||
        r.test_id == "xnn/unreg.bpte") {
      EXPECT_EQ(r.result, "Pass") << r.test_id << " " << r.error;
      EXPECT_FALSE(r.delegated) << r.test_id;  // the twin has no delegate
      ++passed;
    } else {
      EXPECT_EQ(r.result, "Skip") << r.test_id;
      EXPECT_EQ(r.detail, "Backend Not Available") << r.test_id;
      ++skipped;
    }
  }
  EXPECT_EQ(passed, 6u);    // 3 cases with twins x 2 loaders
  EXPECT_EQ(skipped, 16u);  // 2 xnn + 1 golden + 5 planted without twins, x 2 loaders
}

TEST_F(SuiteTest, ShardsCoverTheListOnceAndMerge) {
  const std::string common = "--cases " + (root_ / "tree" / "xnn").string() + " --threads 1,2";
  const SuiteRun whole = run_suite(common + " --out " + (root_ / "s_all").string(), false);
  const SuiteRun s1 = run_suite(common + " --shard 1/2 --out " + (root_ / "s1").string(), false);
  const SuiteRun s2 = run_suite(common + " --shard 2/2 --out " + (root_ / "s2").string(), false);
  EXPECT_EQ(whole.status, 0) << whole.output;
  EXPECT_EQ(s1.status, 0) << s1.output;
  EXPECT_EQ(s2.status, 0) << s2.output;
  auto keys = [](const std::vector<CaseResult>& results) {
    std::multiset<std::string> k;
    for (const CaseResult& r : results) k.insert(r.test_id + " " + r.params);
    return k;
  };
  const auto all = keys(read_results(root_ / "s_all"));
  const auto a = keys(read_results(root_ / "s1"));
  const auto b = keys(read_results(root_ / "s2"));
  EXPECT_EQ(all.size(), 8u);
  EXPECT_FALSE(a.empty());
  EXPECT_FALSE(b.empty());
  std::multiset<std::string> both = a;
  both.insert(b.begin(), b.end());
  EXPECT_EQ(both, all);
  for (const std::string& k : a) EXPECT_EQ(b.count(k), 0u) << k;

  const SuiteRun merged = run_suite("--merge " + (root_ / "s1").string() + "," +
                                   (root_ / "s2").string() + " --out " +
                                   (root_ / "merged").string(),
                               false);
  EXPECT_EQ(merged.status, 0) << merged.output;
  EXPECT_EQ(keys(read_results(root_ / "merged")), all);
  EXPECT_TRUE(fs::is_regular_file(root_ / "merged" / "junit.xml"));
}

}  // namespace
