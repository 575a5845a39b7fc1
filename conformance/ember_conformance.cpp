// ember_conformance: runs a tree of conformance cases through a matrix of
// configurations and writes report.csv, report.json, junit.xml and
// summary.md.
//
//   ember_conformance --cases DIR --out DIR [--threads 1,2] [--backends all,portable]
//       [--loader mmap,file,buffer] [--verification minimal,internal]
//       [--executions N] [--shard I/N] [--timeout S] [--manifest FILE]
//   ember_conformance --merge DIR1,DIR2,... --out DIR
//
// Each axis flag takes a comma-separated list; the matrix is their cross
// product. Each (case, configuration) runs in a child process (this binary
// with --run_one; suite.h has the protocol), so a crash or a hang is a
// result. --merge reads the report.json of shard runs and writes the four
// reports of their union (conformance/merge_shards.py wraps it).
//
// Exit status: 0 when every result that is not an expected failure passed
// or was skipped; 1 otherwise; 2 for bad flags or an unreadable tree.
#include <gflags/gflags.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/case_runner.h"
#include "conformance/report.h"
#include "conformance/suite.h"

DEFINE_string(cases, "", "Directory of cases (.bpte, golden-artifact .pte), searched recursively.");
DEFINE_string(out, "", "Directory for report.csv, report.json, junit.xml and summary.md.");
DEFINE_string(threads, "1", "Thread counts, comma-separated (an axis of the matrix).");
DEFINE_string(backends, "all",
              "Backend settings, comma-separated: all (delegates as registered) and/or "
              "portable (the portable twin of a delegated program).");
DEFINE_string(loader, "mmap",
              "Data loaders, comma-separated: file, mmap, mmap_mlock, "
              "mmap_mlock_ignore_errors or buffer (Module::load_mode_names()).");
DEFINE_string(verification, "minimal",
              "Program verification levels, comma-separated: minimal, internal.");
DEFINE_string(executions, "1", "Executions per subtest (timed: min and median), comma-separated.");
DEFINE_string(shard, "1/1", "Run shard I of N (I from 1) of the sorted (case, configuration) list.");
DEFINE_double(timeout, 300, "Seconds a case's child process may run before it is killed.");
DEFINE_string(manifest, "", "JSON manifest: per-case rtol, atol, xfail, timeout_s.");
DEFINE_string(merge, "", "Shard output directories to merge (comma-separated) into --out.");
DEFINE_bool(quiet, false, "Print only the summary line.");
// The child side (internal; set by the suite).
DEFINE_string(run_one, "", "(internal) Run one case in this process and print JSON lines.");
DEFINE_string(case_id, "", "(internal) The case's id.");
DEFINE_string(case_kind, "bundled", "(internal) bundled or golden.");
DEFINE_double(rtol, -1, "(internal) Relative tolerance (< 0: the default by dtype).");
DEFINE_double(atol, -1, "(internal) Absolute tolerance (< 0: the default by dtype).");
DEFINE_int32(first_subtest, 0, "(internal) First subtest to run.");
DEFINE_string(plant, "", "(internal, tests only) Planted fault; needs EMBER_CONFORMANCE_TEST_FAULTS=1.");

namespace {

using namespace ember::conformance;

int bad_flag(const std::string& message) {
  fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

bool parse_ints(const std::string& text, std::vector<int>* out) {
  out->clear();
  for (const std::string& item : split_list(text)) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (end != item.c_str() + item.size() || v < 1 || v > 1024) return false;
    out->push_back(int(v));
  }
  return !out->empty();
}

bool parse_shard(const std::string& text, int* index, int* count) {
  int i = 0, n = 0;
  char tail = 0;
  if (sscanf(text.c_str(), "%d/%d%c", &i, &n, &tail) != 2) return false;
  if (n < 1 || i < 1 || i > n) return false;
  *index = i;
  *count = n;
  return true;
}

std::string self_exe(const char* argv0) {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n > 0) return std::string(path, size_t(n));
  return argv0;
}

// The child: one case, JSON lines on stdout.
int run_one() {
  CaseSpec spec;
  spec.path = FLAGS_run_one;
  spec.id = FLAGS_case_id.empty() ? FLAGS_run_one : FLAGS_case_id;
  spec.name = std::filesystem::path(FLAGS_run_one).stem().string();
  spec.kind = FLAGS_case_kind == "golden" ? CaseKind::Golden : CaseKind::Bundled;
  spec.rtol = FLAGS_rtol;
  spec.atol = FLAGS_atol;
  if (!parse_plant(FLAGS_plant, &spec.plant)) return bad_flag("unknown --plant");
  CaseConfig config;
  std::vector<int> threads, executions;
  if (!parse_ints(FLAGS_threads, &threads) || threads.size() != 1 ||
      !parse_ints(FLAGS_executions, &executions) || executions.size() != 1) {
    return bad_flag("--run_one takes one --threads and one --executions value");
  }
  config.threads = threads[0];
  config.executions = executions[0];
  config.backends = FLAGS_backends;
  config.loader = FLAGS_loader;
  config.verification = FLAGS_verification;
  run_case(
      spec, config, size_t(FLAGS_first_subtest > 0 ? FLAGS_first_subtest : 0),
      [](const std::vector<std::string>& labels) {
        printf("%s\n", nlohmann::json{{"subtests", labels}}.dump().c_str());
        fflush(stdout);
      },
      [](const CaseResult& r) {
        printf("%s\n", to_json(r).dump().c_str());
        fflush(stdout);
      });
  return 0;
}

bool read_report_json(const std::string& dir, std::vector<CaseResult>* results,
                      std::string* error) {
  const std::string path = (std::filesystem::path(dir) / "report.json").string();
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open '" + printable(path) + "'";
    return false;
  }
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded()) {
    *error = "'" + printable(path) + "' is not JSON";
    return false;
  }
  std::vector<CaseResult> shard;
  if (!read_json_report(report, &shard, error)) {
    *error = "'" + printable(path) + "': " + *error;
    return false;
  }
  results->insert(results->end(), shard.begin(), shard.end());
  return true;
}

// The four reports into `dir`, with the report writers (report.h).
bool write_reports(const std::string& dir, const std::vector<CaseResult>& results,
                   std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path d(dir);
  return write_csv(results, (d / "report.csv").string(), error) &&
         write_json(results, (d / "report.json").string(), error) &&
         write_junit(results, (d / "junit.xml").string(), error) &&
         write_markdown(results, (d / "summary.md").string(), error);
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "ember_conformance --cases DIR --out DIR [--threads 1,2] [--backends all,portable] "
      "[--loader mmap] [--verification minimal] [--executions N] [--shard I/N] "
      "[--timeout S] [--manifest FILE] | --merge DIR1,DIR2 --out DIR");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (!FLAGS_run_one.empty()) return run_one();

  if (FLAGS_out.empty()) return bad_flag("--out is required");
  const auto start = std::chrono::steady_clock::now();
  std::vector<CaseResult> results;
  std::string error;
  if (!FLAGS_merge.empty()) {
    for (const std::string& dir : split_list(FLAGS_merge)) {
      if (!read_report_json(dir, &results, &error)) return bad_flag(error);
    }
  } else {
    if (FLAGS_cases.empty()) return bad_flag("--cases is required (or --merge)");
    SuiteOptions o;
    o.cases_dir = FLAGS_cases;
    o.manifest = FLAGS_manifest;
    o.timeout_s = FLAGS_timeout;
    o.self_exe = self_exe(argv[0]);
    o.backends = split_list(FLAGS_backends);
    o.loaders = split_list(FLAGS_loader);
    o.verifications = split_list(FLAGS_verification);
    if (!parse_ints(FLAGS_threads, &o.threads)) return bad_flag("--threads: give counts >= 1, e.g. 1,2");
    if (!parse_ints(FLAGS_executions, &o.executions)) return bad_flag("--executions: give counts >= 1");
    if (!parse_shard(FLAGS_shard, &o.shard_index, &o.shard_count)) {
      return bad_flag("--shard must be I/N with 1 <= I <= N");
    }
    if (!(FLAGS_timeout > 0)) return bad_flag("--timeout must be positive");
    for (const CaseConfig& c : config_matrix(o)) {
      if (!check_config(c, &error)) return bad_flag(error);
    }
    if (o.backends.empty() || o.loaders.empty() || o.verifications.empty()) {
      return bad_flag("--backends, --loader and --verification need at least one value");
    }
    static bool quiet = false;
    quiet = FLAGS_quiet;
    const bool ok = run_suite(o, &results, &error, [](const CaseResult& r) {
      if (quiet) return;
      printf("%-4s %-50s %s%s%s\n", r.result.c_str(), r.test_id.c_str(), r.params.c_str(),
             r.detail.empty() ? "" : "  ", r.detail.c_str());
      fflush(stdout);
    });
    if (!ok) return bad_flag(error);
  }
  if (!write_reports(FLAGS_out, results, &error)) return bad_flag(error);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printf("ember_conformance: %s (%.1f s); reports in %s\n", summary_line(results).c_str(), wall,
         FLAGS_out.c_str());
  return suite_exit_status(results);
}
