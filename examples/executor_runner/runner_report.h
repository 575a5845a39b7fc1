// executor_runner: what a run found, printed as a table (stdout) and
// written as JSON (--report).
#pragma once

#include <cstdio>
#include <string>
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
};

double min_ms(const std::vector<double>& v);
double median_ms(const std::vector<double>& v);

// The readable table: one line per output of each verified case, and the
// timing of every case.
void print_summary(const RunSummary& summary, FILE* out);

// Writes the report as JSON. Non-finite numbers are written as the strings
// "inf", "-inf" and "nan". AccessFailed when the file cannot be written.
Error write_json_report(const RunSummary& summary, const std::string& path);

}  // namespace ember::runner
