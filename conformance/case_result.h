// One conformance result: a case (a .bpte test set or a golden-artifact
// case) run under one configuration, with the facts read from the program
// and, when the case tree has one, the exporter's sidecar facts.
//
// A CaseResult travels as JSON: from the child process that ran the case to
// the parent (one object on stdout), into report.json, and between shard
// reports when they are merged. to_json() and from_json() are inverses for
// every field below.
//
// Tool code: uses the heap and nlohmann_json; never linked into the runtime.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ember::conformance {

// Error statistics of one output against its expected value.
struct OutputStats {
  double max_abs = 0, max_rel = 0, mae = 0, sqnr_db = 0;
  bool ok = true;  // within the case's tolerance
};

// Facts read from a program's bytes (conformance/program_facts.h), no Python.
struct ProgramFacts {
  uint64_t pte_bytes = 0;  // file size (the .bpte's embedded program size for .bpte)
  uint64_t kernel_calls = 0, delegate_calls = 0;   // instructions, all methods
  std::map<std::string, uint64_t> undelegated_ops;  // "aten::add.out" -> kernel calls
  // XNNPACK node type (the XN01 node union name, "XNNConv2d") -> count;
  // other backends: "<backend id> call" -> delegate calls.
  std::map<std::string, uint64_t> delegated_ops;
  uint64_t delegate_blobs = 0, delegate_blob_bytes = 0, constant_bytes = 0;
  double delegated_percent = 0;  // delegated ops / (delegated + undelegated ops) * 100
  std::vector<std::string> backends;  // delegate ids used, sorted, unique
  // Every method's operator table, "name.overload", sorted, unique: what
  // loading the program needs registered, called or not (not in the JSON).
  std::vector<std::string> operators;
};

// Facts from the exporter's sidecar <case>.aot.json, when there is one.
struct AotFacts {
  bool present = false;
  std::string flow, params;
  double quantize_time_s = 0, lower_time_s = 0;
  int64_t delegated_nodes = -1, undelegated_nodes = -1;  // -1: not reported
  std::map<std::string, int64_t> delegated_ops, undelegated_ops;  // exporter's counts
};

// One point of the configuration matrix.
struct CaseConfig {
  int threads = 1;
  std::string backends = "all";  // "all" or "portable" (no delegates)
  std::string loader = "mmap";
  std::string verification = "minimal";
  int executions = 1;
};

struct CaseResult {
  std::string test_id;    // "<case path relative to --cases>[<testset>]"
  std::string test_case;  // case name (file stem)
  std::string subtest;    // bundled test case index / golden set, "" if one
  std::string flow;       // from sidecar or inferred: "portable", "xnnpack", "demo", ...
  std::string params;     // "threads=2 backends=all loader=mmap verification=minimal executions=1"
  CaseConfig config;
  std::string result;  // "Pass" | "Fail" | "Skip"
  // Upstream's vocabulary: "", "Lowering Failed", "PTE Load Failed",
  // "PTE Run Failed", "Output Mismatch", "Process Crash", "Timeout",
  // "Expected Failure", "Unexpected Pass", "Backend Not Available".
  std::string detail;
  bool delegated = false;
  ProgramFacts facts;
  AotFacts aot;
  std::vector<OutputStats> outputs;
  double load_ms = 0, exec_min_ms = 0, exec_median_ms = 0;
  std::string error;  // message (escaped)
  bool xfail = false;  // manifest expected failure
  std::string xfail_reason;
};

// JSON both ways. Non-finite doubles (an infinite relative error, a NaN
// SQNR) are written as the strings "inf", "-inf", "nan" and read back.
nlohmann::json to_json(const CaseResult& result);
// Fills *out from `j`. Missing members keep their defaults; a member of the
// wrong type, or a `j` that is not an object, gives false with *error
// naming the member. Never throws.
bool from_json(const nlohmann::json& j, CaseResult* out, std::string* error);

}  // namespace ember::conformance
