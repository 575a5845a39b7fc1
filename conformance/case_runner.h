// Runs ONE conformance case under one configuration in this process.
//
// A case is either a bundled program (NAME.bpte: each bundled test case of
// each method is a subtest) or upstream's golden-artifact layout (NAME.pte
// with NAME_input[_i].bin and NAME_expected_output[_i].bin beside it: raw
// bytes in the program's dim order, dtypes and shapes from the MethodMeta
// of "forward"; one subtest). The suite (suite.h) calls this only in a
// child process: loading an untrusted program may crash or hang, and the
// parent must survive that.
//
// What run_case() does, in order:
//   1. chooses the program: the case itself, or its portable twin
//      (NAME.portable.bpte / NAME.portable.pte next to it) when the
//      configuration asks for backends=portable and the program uses a
//      delegate, or when a delegate the program names is not registered
//      or not available. No twin: one Skip result, "Backend Not Available".
//   2. loads it through the configuration's data loader (mmap, file,
//      buffer) and verification level (minimal, internal), with the
//      shared thread pool set to config.threads (timed: load_ms). A failure
//      is one Fail result, "PTE Load Failed".
//   3. for each subtest: sets its inputs, executes config.executions
//      times (exec min and median), and compares every output with the
//      expected value: element passes when |out - g| <= atol + rtol * |g|
//      (g the expected value); the statistics (max abs, max rel relative
//      to g, MAE, SQNR against g) come from bundled_program's comparison
//      (compare_tensor_data). Failure to execute: "PTE Run Failed"; an
//      output outside tolerance, or of the wrong dtype or shape: "Output
//      Mismatch".
//
// Facts about the program (program_facts.h) and the sidecar NAME.aot.json
// (when present) are attached to every result.
//
// Tolerances: the caller's (the suite resolves the manifest, then a
// MANIFEST beside the case); each one not given, default_tolerance().
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "conformance/case_result.h"
#include "runtime/core/scalar_type.h"

namespace ember::conformance {

enum class CaseKind { Bundled, Golden };

// Tolerances when neither the manifest nor the case directory gives one:
// bundled programs by output dtype (the project's op suite's table: float32
// near its epsilon, 16-bit floats a few ulps, integers and bool exact);
// golden artifacts upstream's test suite's (backends/test/suite: rtol
// 4e-2, atol 1e-1), whatever the dtype.
struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};
Tolerance default_tolerance(CaseKind kind, ScalarType dtype);

// Test-only faults, honoured only when the environment variable
// EMBER_CONFORMANCE_TEST_FAULTS is "1" (see test_faults_enabled()).
enum class Plant { None, Crash, Hang, Mismatch };

struct CaseSpec {
  std::string path;  // the .bpte or golden .pte
  std::string id;    // path relative to the case root (test_id prefix)
  std::string name;  // file stem
  CaseKind kind = CaseKind::Bundled;
  double rtol = -1.0;  // < 0: default_tolerance()
  double atol = -1.0;  // < 0: default_tolerance()
  Plant plant = Plant::None;
};

// `text` with every byte outside printable ASCII written as \xNN: for
// anything read from a file or a child before it is printed or reported.
std::string printable(const std::string& text);

// True when EMBER_CONFORMANCE_TEST_FAULTS=1 (planted faults may run).
bool test_faults_enabled();
// "crash" | "hang" | "mismatch" | "" -> Plant; false for anything else.
bool parse_plant(const std::string& text, Plant* plant);
const char* plant_name(Plant plant);

// "threads=2 backends=all loader=mmap verification=minimal executions=1".
std::string config_params(const CaseConfig& config);
// Checks a configuration's values; false with *error set when one is
// unknown (loader not mmap|file|buffer, verification not
// minimal|internal, backends not all|portable, threads or executions < 1).
bool check_config(const CaseConfig& config, std::string* error);

// The portable twin of `path` ("" when there is none on disk).
std::string portable_twin(const std::string& path, CaseKind kind);

// Reads NAME.aot.json next to `path` (absent: present = false). A sidecar
// that cannot be parsed is absent, with *error set.
AotFacts read_sidecar(const std::string& path, std::string* error);

// Called once with the subtests' labels ("" for a lone subtest), before
// any result; empty when the program could not be loaded or the case was
// skipped: then exactly one result follows, with subtest "".
using SubtestCountFn = std::function<void(const std::vector<std::string>& labels)>;
using ResultFn = std::function<void(const CaseResult& result)>;

// Runs subtests [first_subtest, count) of `spec` under `config`, calling
// `on_result` once per subtest in order. Sets the process-wide thread
// pool. Never throws; every failure is a result.
void run_case(const CaseSpec& spec, const CaseConfig& config, size_t first_subtest,
              const SubtestCountFn& on_count, const ResultFn& on_result);

}  // namespace ember::conformance
