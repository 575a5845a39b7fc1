// executor_runner: what a run found, printed as a table (stdout) and
// written as JSON (--report).
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "bundled_program/bundled_program.h"

namespace ember::runner {

// One execution series of a method: a bundled test case, or the inputs
// from --inputs / defaults (testset_index -1).
struct CaseResult {
  std::string method;
  int64_t testset_index = -1;
  std::vector<double> execute_ms;  // one per execution
  bool verified = false;           // compared with a bundled test case
  bool passed = false;             // verified and every output passed
  std::string error;               // non-empty when loading or running failed
  std::vector<OutputReport> outputs;
};

struct RunSummary {
  std::string model_path;
  bool bundled = false;
  double rtol = 0.0;
  double atol = 0.0;
  int threads = 0;
  double program_load_ms = 0.0;
  std::vector<std::pair<std::string, double>> method_load_ms;
  std::vector<CaseResult> cases;
  // More top-level sections of the JSON report: (key, JSON text), e.g. the
  // profile and intermediates from runner_trace.h.
  std::vector<std::pair<std::string, std::string>> extra_json;
};

double min_ms(const std::vector<double>& v);
double median_ms(const std::vector<double>& v);

// The readable table: one line per output of each verified case, and the
// timing of every case.
void print_summary(const RunSummary& summary, FILE* out);

// What --print_output prints of a method's outputs (upstream's runner's
// modes): None, nothing; Summary, one line per output with its first and
// last kSummaryEdgeItems elements; All, every element on its own line.
enum class PrintOutput { None, Summary, All };
constexpr size_t kSummaryEdgeItems = 100;

// "none", "summary" or "all"; false for anything else.
bool parse_print_output(const std::string& text, PrintOutput* mode);

// Prints the outputs of `method` as `mode` says, after a
// "Method '<name>' outputs:" line (`shown_name` already escaped).
void print_method_outputs(const Method& method, const std::string& shown_name,
                          PrintOutput mode, FILE* out);

// Writes the report as JSON. Non-finite numbers are written as the strings
// "inf", "-inf" and "nan". AccessFailed when the file cannot be written.
Error write_json_report(const RunSummary& summary, const std::string& path);

}  // namespace ember::runner
