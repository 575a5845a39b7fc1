// The conformance suite: finds the cases under a directory, applies the
// manifest, builds the configuration matrix, takes this shard's part of
// the (case, configuration) list, and runs each item in a child process
// (the same binary, `--run_one`), so that a crash or a hang is a result
// and the suite goes on. The parent never loads a program.
//
// Discovery (deterministic): every regular file under the root, sorted by
// its path relative to the root; a case is a `.bpte`, or a `.pte` with
// NAME_expected_output.bin or NAME_expected_output_0.bin beside it
// (upstream's golden-artifact layout). Portable twins (NAME.portable.*)
// are not cases: case_runner.h runs them in place of a case.
//
// Tolerances, first that applies: the --manifest entry; a `MANIFEST` text
// file in the case's directory with a line "NAME ... rtol=R atol=A ..."
// (the committed fixtures' format; "-" or a missing token: no value); the
// defaults of case_runner.h.
//
// Manifest (JSON): {"cases": {"<glob>": {"rtol": x, "atol": y,
// "xfail": "reason", "timeout_s": n, "plant": "crash|hang|mismatch"}}}.
// A glob (fnmatch, '*' crosses '/') matches the case's relative path, the
// path without its extension, or the file stem; every matching entry
// applies, in file order, later keys overriding earlier ones. "plant" is
// for the suite's own tests: ignored unless EMBER_CONFORMANCE_TEST_FAULTS=1.
//
// Sharding: the items are the cases (sorted) times the configurations
// (axes in the order threads, backends, loader, verification, executions,
// each in the order given), T in all; shard I of N takes the contiguous
// items [T (I-1) / N, T I / N) (integer division), so a case's
// configurations mostly stay in one shard and the shards' sizes differ by
// at most one.
//
// Child protocol (one child per item, restarted after a subtest that
// killed it): the child writes on stdout one JSON line {"subtests":
// [labels]} then one CaseResult line per subtest. A child killed by a
// signal, or that ends without a result line for the subtest it was on,
// gives Fail "Process Crash" for that subtest (the signal named in the
// error); one still running after the time limit is killed and gives Fail
// "Timeout". Either way the remaining subtests run in a new child.
//
// Expected failures: a failing xfail case keeps its result and detail with
// xfail = true and does not fail the suite; a passing one becomes Fail
// with detail "Unexpected Pass".
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/case_result.h"
#include "conformance/case_runner.h"

namespace ember::conformance {

struct ManifestEntry {
  std::optional<double> rtol, atol, timeout_s;
  std::optional<std::string> xfail;  // reason
  std::optional<std::string> plant;
};

struct Manifest {
  std::vector<std::pair<std::string, ManifestEntry>> entries;  // glob -> entry, file order
};

// Parses a manifest file; false with *error (which key, which value).
bool load_manifest(const std::string& path, Manifest* manifest, std::string* error);
// The merged entry for a case (empty when no glob matches).
ManifestEntry manifest_entry(const Manifest& manifest, const std::string& id,
                             const std::string& name);

// A case found under the root, with what the manifest says about it.
struct SuiteCase {
  CaseSpec spec;
  std::optional<std::string> xfail;
  std::optional<double> timeout_s;
};

// Finds the cases under `root` (see the top of this file). False with
// *error when the root cannot be read or the manifest names a bad plant.
bool discover_cases(const std::string& root, const Manifest& manifest,
                    std::vector<SuiteCase>* cases, std::string* error);

struct SuiteOptions {
  std::string cases_dir;
  std::string manifest;  // "" for none
  std::vector<int> threads{1};
  std::vector<std::string> backends{"all"};
  std::vector<std::string> loaders{"mmap"};
  std::vector<std::string> verifications{"minimal"};
  std::vector<int> executions{1};
  int shard_index = 1;  // 1-based
  int shard_count = 1;
  double timeout_s = 300.0;
  std::string self_exe;  // the binary that runs a child (--run_one)
};

std::vector<CaseConfig> config_matrix(const SuiteOptions& options);

struct WorkItem {
  size_t case_index = 0;
  CaseConfig config;
};
// This shard's items, in order.
std::vector<WorkItem> shard_items(size_t num_cases, const std::vector<CaseConfig>& matrix,
                                  int shard_index, int shard_count);

// Runs one item in child processes (see the top of this file); one result
// per subtest.
std::vector<CaseResult> run_item(const SuiteOptions& options, const SuiteCase& c,
                                 const CaseConfig& config);

// Applies the manifest's xfail to a result (see the top of this file).
void apply_expected_failure(const SuiteCase& c, CaseResult* r);

// Discovers, shards and runs; results in run order. `progress` (may be
// null) gets each result as it comes. False with *error for a bad root or
// manifest.
bool run_suite(const SuiteOptions& options, std::vector<CaseResult>* results, std::string* error,
               void (*progress)(const CaseResult&) = nullptr);

// 0 when every result that is not an expected failure passed or was
// skipped; 1 otherwise.
int suite_exit_status(const std::vector<CaseResult>& results);
// "N results: P passed, F failed (X expected failures), S skipped".
std::string summary_line(const std::vector<CaseResult>& results);

// Splits "a,b,c" (empty items dropped).
std::vector<std::string> split_list(const std::string& text);

}  // namespace ember::conformance
