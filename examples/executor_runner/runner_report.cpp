#include "examples/executor_runner/runner_report.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <cinttypes>

#include <nlohmann/json.hpp>

#include "extension/runner_util/inputs.h"

namespace ember::runner {

double min_ms(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

double median_ms(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  const size_t n = s.size();
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

namespace {

nlohmann::json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

const char* result_text(const OutputReport& r) {
  return r.passed ? "PASS" : "FAIL";
}

}  // namespace

bool parse_print_output(const std::string& text, PrintOutput* mode) {
  if (text == "none") {
    *mode = PrintOutput::None;
  } else if (text == "summary") {
    *mode = PrintOutput::Summary;
  } else if (text == "all") {
    *mode = PrintOutput::All;
  } else {
    return false;
  }
  return true;
}

namespace {

// "tensor(Float, sizes=[3, 6]) [a, b, ..., y, z]": the first and last
// kSummaryEdgeItems elements.
void print_tensor_summary(const Tensor& t, FILE* out) {
  fprintf(out, "tensor(%s, sizes=[", scalar_type_name(t.scalar_type()));
  for (size_t d = 0; d < t.dim(); ++d) {
    fprintf(out, "%s%d", d ? ", " : "", int(t.sizes()[d]));
  }
  fprintf(out, "]) [");
  const int64_t n = t.const_data_ptr() != nullptr ? t.numel() : 0;
  const int64_t edge = int64_t(kSummaryEdgeItems);
  for (int64_t i = 0; i < n; ++i) {
    if (n > 2 * edge && i == edge) {
      fprintf(out, ", ...");
      i = n - edge;
    }
    fprintf(out, "%s%g", i ? ", " : "", element_as_double(t, i));
  }
  fprintf(out, "]");
}

}  // namespace

void print_method_outputs(const Method& method, const std::string& shown_name,
                          PrintOutput mode, FILE* out) {
  if (mode == PrintOutput::None) return;
  fprintf(out, "Method '%s' outputs:\n", shown_name.c_str());
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    if (mode == PrintOutput::Summary || !v.is_tensor()) {
      fprintf(out, "Output %zu: ", i);
      if (v.is_tensor()) {
        print_tensor_summary(v.to_tensor(), out);
      } else {
        print_evalue(v, out, 0);
      }
      fprintf(out, "\n");
      continue;
    }
    const Tensor t = v.to_tensor();
    const int64_t n = t.const_data_ptr() != nullptr ? t.numel() : 0;
    for (int64_t j = 0; j < n; ++j) {
      fprintf(out, "Output[%zu][%" PRId64 "]: (%s) %.9g\n", i, j,
              scalar_type_name(t.scalar_type()), element_as_double(t, j));
    }
  }
}

void print_summary(const RunSummary& s, FILE* out) {
  fprintf(out, "Program loaded in %.3f ms", s.program_load_ms);
  for (const auto& [name, ms] : s.method_load_ms) {
    fprintf(out, "; method '%s' in %.3f ms", name.c_str(), ms);
  }
  fprintf(out, "\n");
  bool any_verified = false;
  for (const CaseResult& c : s.cases) any_verified = any_verified || c.verified;
  if (any_verified) {
    fprintf(out, "\nVerification (rtol %g, atol %g):\n", s.rtol, s.atol);
    fprintf(out, "%-12s %5s %4s %-8s %-6s %11s %11s %11s %9s  %s\n", "method", "case",
            "out", "dtype", "result", "max_abs", "max_rel", "mean_abs", "outside",
            "worst (index: expected / got)");
    for (const CaseResult& c : s.cases) {
      if (!c.verified) continue;
      for (const OutputReport& r : c.outputs) {
        fprintf(out, "%-12s %5lld %4zu %-8s %-6s ", c.method.c_str(),
                static_cast<long long>(c.testset_index), r.output_index,
                scalar_type_name(r.actual_dtype), result_text(r));
        if (r.mismatch == OutputMismatch::Dtype || r.mismatch == OutputMismatch::Shape ||
            r.mismatch == OutputMismatch::Kind) {
          fprintf(out, "%s mismatch (expected %s rank %zu, got %s rank %zu)\n",
                  output_mismatch_name(r.mismatch), scalar_type_name(r.expected_dtype),
                  r.expected_rank, scalar_type_name(r.actual_dtype), r.actual_rank);
          continue;
        }
        fprintf(out, "%11.3g %11.3g %11.3g %4lld/%-4lld  ", r.max_abs_error,
                r.max_rel_error, r.mean_abs_error,
                static_cast<long long>(r.num_outside_tolerance),
                static_cast<long long>(r.numel));
        if (r.worst_index >= 0) {
          fprintf(out, "%lld: %.9g / %.9g", static_cast<long long>(r.worst_index),
                  r.worst_expected, r.worst_actual);
        }
        fprintf(out, "\n");
      }
    }
  }
  fprintf(out, "\nTiming:\n");
  for (const CaseResult& c : s.cases) {
    const std::string label =
        c.testset_index >= 0 ? "case " + std::to_string(c.testset_index) : "inputs";
    fprintf(out, "  %-12s %-8s %3zu execution(s): min %.3f ms, median %.3f ms%s%s\n",
            c.method.c_str(), label.c_str(), c.execute_ms.size(), min_ms(c.execute_ms),
            median_ms(c.execute_ms), c.error.empty() ? "" : "  ERROR: ",
            c.error.c_str());
  }
}

Error write_json_report(const RunSummary& s, const std::string& path) {
  nlohmann::json root;
  root["model_path"] = s.model_path;
  root["bundled"] = s.bundled;
  root["rtol"] = s.rtol;
  root["atol"] = s.atol;
  root["threads"] = s.threads;
  root["program_load_ms"] = s.program_load_ms;
  nlohmann::json loads = nlohmann::json::object();
  for (const auto& [name, ms] : s.method_load_ms) loads[name] = ms;
  root["method_load_ms"] = loads;
  bool all_passed = true;
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : s.cases) {
    nlohmann::json jc;
    jc["method"] = c.method;
    jc["test_case"] = c.testset_index >= 0 ? nlohmann::json(c.testset_index) : nullptr;
    jc["executions"] = c.execute_ms.size();
    jc["min_ms"] = min_ms(c.execute_ms);
    jc["median_ms"] = median_ms(c.execute_ms);
    jc["verified"] = c.verified;
    jc["passed"] = c.error.empty() && (!c.verified || c.passed);
    if (!c.error.empty()) jc["error"] = c.error;
    all_passed = all_passed && jc["passed"].get<bool>();
    nlohmann::json outs = nlohmann::json::array();
    for (const OutputReport& r : c.outputs) {
      nlohmann::json o;
      o["index"] = r.output_index;
      o["passed"] = r.passed;
      o["mismatch"] = output_mismatch_name(r.mismatch);
      o["is_tensor"] = r.is_tensor;
      o["expected_dtype"] = scalar_type_name(r.expected_dtype);
      o["actual_dtype"] = scalar_type_name(r.actual_dtype);
      o["numel"] = r.numel;
      o["outside_tolerance"] = r.num_outside_tolerance;
      o["max_abs_error"] = number(r.max_abs_error);
      o["max_rel_error"] = number(r.max_rel_error);
      o["mean_abs_error"] = number(r.mean_abs_error);
      if (r.worst_index >= 0) {
        o["worst"] = {{"index", r.worst_index},
                      {"expected", number(r.worst_expected)},
                      {"actual", number(r.worst_actual)}};
      }
      outs.push_back(o);
    }
    jc["outputs"] = outs;
    cases.push_back(jc);
  }
  root["cases"] = cases;
  root["passed"] = all_passed;
  for (const auto& [key, text] : s.extra_json) {
    root[key] = nlohmann::json::parse(text, nullptr, false);
  }
  std::ofstream out(path);
  out << root.dump(2) << "\n";
  EMBER_CHECK_OR_RETURN(out.good(), Error::AccessFailed, "cannot write report '%s'",
                        path.c_str());
  return Error::Ok;
}

}  // namespace ember::runner
