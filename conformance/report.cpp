#include "conformance/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace ember::conformance {
namespace {

using nlohmann::json;

// Upstream writes at most this many outputs' statistics per row.
constexpr size_t kLoggedOutputs = 2;
// Upstream keeps the first and last 200 characters of a longer error.
constexpr size_t kErrorKeep = 200;

// Python's f"{v:.<digits>f}": "nan", "inf", "-inf" for non-finite values.
std::string fixed(double v, int digits = 3) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string general(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::string bool_str(bool b) { return b ? "True" : "False"; }

// Python's repr() of a str, for names made of printable ASCII (Ember escapes
// anything else before it gets here): single quotes unless the text holds a
// single quote and no double quote.
std::string python_repr(const std::string& s) {
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  out += quote;
  return out;
}

// Upstream's str(dict(sorted(counter.items()))).
template <typename V>
std::string python_dict(const std::map<std::string, V>& counts) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, count] : counts) {
    if (!first) out += ", ";
    first = false;
    out += python_repr(name) + ": " + std::to_string(count);
  }
  return out + "}";
}

// Upstream's json.dumps() of a flat dict of strings (", " and ": ").
std::string python_json_object(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += json(items[i].first).dump(-1, ' ', true) + ": " +
           json(items[i].second).dump(-1, ' ', true);
  }
  return out + "}";
}

// The Params cell: the exporter's parameters (a JSON object in the sidecar)
// then the configuration, as upstream's serialized params dict.
std::string params_cell(const CaseResult& r) {
  std::vector<std::pair<std::string, std::string>> items;
  if (!r.aot.params.empty()) {
    json parsed = json::parse(r.aot.params, nullptr, false);
    if (parsed.is_object()) {
      for (auto it = parsed.begin(); it != parsed.end(); ++it) {
        items.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
      }
    } else {
      items.emplace_back("aot", r.aot.params);
    }
  }
  const CaseConfig& c = r.config;
  items.emplace_back("threads", std::to_string(c.threads));
  items.emplace_back("backends", c.backends);
  items.emplace_back("loader", c.loader);
  items.emplace_back("verification", c.verification);
  items.emplace_back("executions", std::to_string(c.executions));
  return python_json_object(items);
}

std::string error_cell(const std::string& error) {
  if (error.size() <= 2 * kErrorKeep) return error;
  return error.substr(0, kErrorKeep) + "..." + error.substr(error.size() - kErrorKeep);
}

bool facts_known(const CaseResult& r) { return r.facts.pte_bytes > 0; }

uint64_t sum_counts(const std::map<std::string, uint64_t>& m) {
  uint64_t total = 0;
  for (const auto& e : m) total += e.second;
  return total;
}

// Delegated / undelegated node counts: the exporter's when the sidecar has
// them, else counted from the program. -1 when neither is known.
int64_t delegated_nodes(const CaseResult& r) {
  if (r.aot.present && r.aot.delegated_nodes >= 0) return r.aot.delegated_nodes;
  return facts_known(r) ? int64_t(sum_counts(r.facts.delegated_ops)) : -1;
}

int64_t undelegated_nodes(const CaseResult& r) {
  if (r.aot.present && r.aot.undelegated_nodes >= 0) return r.aot.undelegated_nodes;
  return facts_known(r) ? int64_t(r.facts.kernel_calls) : -1;
}

std::string count_cell(int64_t n) { return n < 0 ? std::string() : std::to_string(n); }

std::string ops_cell(const CaseResult& r, bool delegated) {
  if (r.aot.present) {
    const auto& aot_ops = delegated ? r.aot.delegated_ops : r.aot.undelegated_ops;
    const int64_t aot_nodes = delegated ? r.aot.delegated_nodes : r.aot.undelegated_nodes;
    if (!aot_ops.empty() || aot_nodes >= 0) return python_dict(aot_ops);
  }
  if (!facts_known(r)) return std::string();
  return python_dict(delegated ? r.facts.delegated_ops : r.facts.undelegated_ops);
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

bool write_file(const std::string& path, const std::string& text, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(text.data(), std::streamsize(text.size()));
  if (out) out.close();
  if (!out) {
    if (error != nullptr) *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

// Text for XML: the five special characters as entities; control bytes
// that XML 1.0 cannot carry (anything below 0x20 but tab, LF, CR) as \xNN.
std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02X", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out;
}

struct Tally {
  size_t pass = 0, fail = 0, skip = 0, xfail = 0;
  void add(const CaseResult& r) {
    if (r.result == "Pass") {
      ++pass;
    } else if (r.result == "Fail") {
      ++fail;
    } else {
      ++skip;
    }
    if (r.xfail) ++xfail;
  }
  size_t total() const { return pass + fail + skip; }
  // Upstream's pass rate leaves skips out.
  std::string pass_percent() const {
    return pass + fail == 0 ? std::string("-") : fixed(100.0 * double(pass) / double(pass + fail), 2) + "%";
  }
};

// Seconds a result took, for JUnit: the load and every execution.
double result_seconds(const CaseResult& r) {
  const int runs = r.config.executions > 0 ? r.config.executions : 1;
  return (r.load_ms + r.exec_median_ms * runs) / 1000.0;
}

// Upstream's escaping of a Markdown table cell.
std::string md_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "<br />";
    } else if (c == '\r') {
      continue;
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '|') {
      out += "\\|";
    } else {
      out += c;
    }
  }
  return out;
}

// The program a result read its facts from: the test ID without its
// "[test set]" suffix, with the flow and which backends were allowed.
std::string program_key(const CaseResult& r) {
  std::string id = r.test_id;
  if (!id.empty() && id.back() == ']') {
    const size_t open = id.rfind('[');
    if (open != std::string::npos) id.resize(open);
  }
  return id + "\n" + r.flow + "\n" + r.config.backends;
}

}  // namespace

const std::vector<std::string>& upstream_csv_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c = {"Test ID",         "Test Case",         "Subtest",
                                  "Flow",            "Params",            "Result",
                                  "Result Detail",   "Delegated",         "Quantize Time (s)",
                                  "Lower Time (s)",  "Delegated Nodes",   "Undelegated Nodes",
                                  "Delegated Ops",   "Undelegated Ops",   "PTE Size (Kb)"};
    for (size_t i = 0; i < kLoggedOutputs; ++i) {
      const std::string prefix = "Output " + std::to_string(i);
      c.push_back(prefix + " Error Max");
      c.push_back(prefix + " Error MAE");
      c.push_back(prefix + " SNR");
    }
    c.push_back("Error");
    return c;
  }();
  return columns;
}

const std::vector<std::string>& ember_csv_columns() {
  static const std::vector<std::string> columns = {
      "Delegated %",   "Delegate Blobs",     "Delegate Blob Bytes", "Constant Bytes",
      "Kernel Calls",  "Delegate Calls",     "Backends",            "Threads",
      "Loader",        "Verification",       "Executions",          "Load (ms)",
      "Exec Min (ms)", "Exec Median (ms)",   "Output 0 Error Rel",  "Output 1 Error Rel",
      "Expected Failure"};
  return columns;
}

std::string csv_header() {
  std::vector<std::string> all = upstream_csv_columns();
  const auto& extra = ember_csv_columns();
  all.insert(all.end(), extra.begin(), extra.end());
  return csv_line(all);
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    const std::string& f = fields[i];
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
      out += f;
      continue;
    }
    out += '"';
    for (char c : f) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  return out;
}

std::vector<std::string> csv_row(const CaseResult& r) {
  std::vector<std::string> row;
  // Upstream's columns.
  row.push_back(r.test_id);
  row.push_back(r.test_case);
  row.push_back(r.subtest);
  row.push_back(r.flow);
  row.push_back(params_cell(r));
  row.push_back(r.result);
  row.push_back(r.detail);
  row.push_back(bool_str(r.delegated));
  // Upstream leaves a zero or missing time empty.
  row.push_back(r.aot.present && r.aot.quantize_time_s > 0 ? fixed(r.aot.quantize_time_s) : "");
  row.push_back(r.aot.present && r.aot.lower_time_s > 0 ? fixed(r.aot.lower_time_s) : "");
  row.push_back(count_cell(delegated_nodes(r)));
  row.push_back(count_cell(undelegated_nodes(r)));
  row.push_back(ops_cell(r, true));
  row.push_back(ops_cell(r, false));
  row.push_back(r.facts.pte_bytes > 0 ? fixed(double(r.facts.pte_bytes) / 1000.0) : "");
  for (size_t i = 0; i < kLoggedOutputs; ++i) {
    if (i < r.outputs.size()) {
      row.push_back(fixed(r.outputs[i].max_abs));
      row.push_back(fixed(r.outputs[i].mae));
      row.push_back(fixed(r.outputs[i].sqnr_db));
    } else {
      row.insert(row.end(), 3, std::string());
    }
  }
  row.push_back(error_cell(r.error));

  // Ember's columns.
  const bool known = facts_known(r);
  const ProgramFacts& f = r.facts;
  row.push_back(known ? fixed(f.delegated_percent, 2) : "");
  row.push_back(known ? std::to_string(f.delegate_blobs) : "");
  row.push_back(known ? std::to_string(f.delegate_blob_bytes) : "");
  row.push_back(known ? std::to_string(f.constant_bytes) : "");
  row.push_back(known ? std::to_string(f.kernel_calls) : "");
  row.push_back(known ? std::to_string(f.delegate_calls) : "");
  row.push_back(join(f.backends, ";"));
  row.push_back(std::to_string(r.config.threads));
  row.push_back(r.config.loader);
  row.push_back(r.config.verification);
  row.push_back(std::to_string(r.config.executions));
  const bool timed = r.load_ms > 0 || r.exec_min_ms > 0 || r.exec_median_ms > 0;
  row.push_back(timed ? fixed(r.load_ms) : "");
  row.push_back(timed ? fixed(r.exec_min_ms) : "");
  row.push_back(timed ? fixed(r.exec_median_ms) : "");
  for (size_t i = 0; i < kLoggedOutputs; ++i) {
    row.push_back(i < r.outputs.size() ? general(r.outputs[i].max_rel) : "");
  }
  row.push_back(r.xfail ? (r.xfail_reason.empty() ? "True" : r.xfail_reason) : "");
  return row;
}

bool write_csv(const std::vector<CaseResult>& results, const std::string& path,
               std::string* error) {
  std::string text = csv_header() + "\r\n";
  for (const CaseResult& r : results) text += csv_line(csv_row(r)) + "\r\n";
  return write_file(path, text, error);
}

nlohmann::json json_report(const std::vector<CaseResult>& results) {
  Tally all;
  json items = json::array();
  for (const CaseResult& r : results) {
    all.add(r);
    items.push_back(to_json(r));
  }
  return json{{"format", "ember-conformance-report"},
              {"version", 1},
              {"summary",
               {{"total", all.total()},
                {"pass", all.pass},
                {"fail", all.fail},
                {"skip", all.skip},
                {"expected_failures", all.xfail}}},
              {"results", items}};
}

bool read_json_report(const nlohmann::json& report, std::vector<CaseResult>* results,
                      std::string* error) {
  std::string scratch;
  if (error == nullptr) error = &scratch;
  if (!report.is_object() || !report.contains("results") || !report["results"].is_array()) {
    *error = "not a conformance report: no \"results\" array";
    return false;
  }
  if (report.value("format", std::string()) != "ember-conformance-report") {
    *error = "not a conformance report: \"format\" is not \"ember-conformance-report\"";
    return false;
  }
  std::vector<CaseResult> out;
  const json& items = report["results"];
  for (size_t i = 0; i < items.size(); ++i) {
    CaseResult r;
    std::string why;
    if (!from_json(items[i], &r, &why)) {
      *error = "results[" + std::to_string(i) + "]: " + why;
      return false;
    }
    out.push_back(std::move(r));
  }
  *results = std::move(out);
  return true;
}

bool write_json(const std::vector<CaseResult>& results, const std::string& path,
                std::string* error) {
  return write_file(path, json_report(results).dump(1) + "\n", error);
}

bool write_junit(const std::vector<CaseResult>& results, const std::string& path,
                 std::string* error) {
  // Suites in flow order, results in their given order within a flow.
  std::map<std::string, std::vector<const CaseResult*>> by_flow;
  Tally all;
  double all_seconds = 0;
  for (const CaseResult& r : results) {
    by_flow[r.flow.empty() ? std::string("unknown") : r.flow].push_back(&r);
    all.add(r);
    all_seconds += result_seconds(r);
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"ember_conformance\" tests=\"" << all.total() << "\" failures=\""
      << all.fail << "\" errors=\"0\" skipped=\"" << all.skip << "\" time=\""
      << fixed(all_seconds) << "\">\n";
  for (const auto& [flow, items] : by_flow) {
    Tally t;
    double seconds = 0;
    for (const CaseResult* r : items) {
      t.add(*r);
      seconds += result_seconds(*r);
    }
    out << "  <testsuite name=\"" << xml_escape(flow) << "\" tests=\"" << t.total()
        << "\" failures=\"" << t.fail << "\" errors=\"0\" skipped=\"" << t.skip
        << "\" time=\"" << fixed(seconds) << "\">\n";
    for (const CaseResult* r : items) {
      const std::string name = r->test_id + " " + r->params;
      out << "    <testcase classname=\"" << xml_escape(flow + "." + r->test_case)
          << "\" name=\"" << xml_escape(name) << "\" time=\"" << fixed(result_seconds(*r))
          << "\"";
      const std::string text =
          r->detail + (r->detail.empty() || r->error.empty() ? "" : ": ") + r->error;
      if (r->result == "Fail") {
        out << ">\n      <failure message=\"" << xml_escape(r->detail.empty() ? "Fail" : r->detail)
            << "\" type=\"" << xml_escape(r->detail) << "\">" << xml_escape(text)
            << "</failure>\n    </testcase>\n";
      } else if (r->result == "Skip") {
        out << ">\n      <skipped message=\"" << xml_escape(text) << "\"/>\n    </testcase>\n";
      } else {
        out << "/>\n";
      }
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return write_file(path, out.str(), error);
}

std::string markdown_summary(const std::vector<CaseResult>& results) {
  std::ostringstream md;
  Tally all;
  for (const CaseResult& r : results) all.add(r);
  const size_t ran = all.pass + all.fail;
  auto fraction = [ran](size_t n) {
    return ran == 0 ? std::string("0.00%") : fixed(100.0 * double(n) / double(ran), 2) + "%";
  };
  md << "# Summary\n\n";
  md << "- **Pass**: " << all.pass << "/" << ran << " (" << fraction(all.pass) << ")\n";
  md << "- **Fail**: " << all.fail << "/" << ran << " (" << fraction(all.fail) << ")\n";
  md << "- **Skip**: " << all.skip << "\n";
  md << "- **Expected failures**: " << all.xfail << "\n";
  md << "- **Total**: " << all.total() << "\n";

  // Pass rate per flow and backends, then per configuration.
  std::map<std::pair<std::string, std::string>, Tally> by_flow;
  std::map<std::string, Tally> by_config;
  for (const CaseResult& r : results) {
    by_flow[{r.flow, r.config.backends}].add(r);
    const CaseConfig& c = r.config;
    by_config["| " + std::to_string(c.threads) + " | " + md_cell(c.backends) + " | " +
              md_cell(c.loader) + " | " + md_cell(c.verification) + " | " +
              std::to_string(c.executions) + " |"]
        .add(r);
  }
  md << "\n## Results by Flow\n\n";
  md << "| Flow | Backends | Pass | Fail | Skip | Pass % |\n|---|---|---|---|---|---|\n";
  for (const auto& [key, t] : by_flow) {
    md << "| " << md_cell(key.first) << " | " << md_cell(key.second) << " | " << t.pass
       << " | " << t.fail << " | " << t.skip << " | " << t.pass_percent() << " |\n";
  }
  md << "\n## Results by Parameters\n\n";
  md << "| Threads | Backends | Loader | Verification | Executions | Pass | Fail | Skip | "
        "Pass % |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [key, t] : by_config) {
    md << key << " " << t.pass << " | " << t.fail << " | " << t.skip << " | "
       << t.pass_percent() << " |\n";
  }

  std::map<std::string, size_t> by_detail;
  size_t with_detail = 0;
  for (const CaseResult& r : results) {
    if (!r.detail.empty()) {
      ++by_detail[r.detail];
      ++with_detail;
    }
  }
  md << "\n## Failure Breakdown:\n";
  for (const auto& [detail, n] : by_detail) {
    md << "- **" << md_cell(detail) << "**: " << n << "/" << with_detail << "\n";
  }

  // Operators left on portable kernels by delegating runs: each program
  // counted once however many test sets and configurations ran it.
  std::map<std::string, std::pair<uint64_t, size_t>> undelegated;  // op -> (calls, programs)
  std::set<std::string> seen;
  for (const CaseResult& r : results) {
    if (!facts_known(r) || r.config.backends == "portable") continue;
    if (!seen.insert(program_key(r)).second) continue;
    for (const auto& [op, n] : r.facts.undelegated_ops) {
      undelegated[op].first += n;
      ++undelegated[op].second;
    }
  }
  std::vector<std::pair<std::string, std::pair<uint64_t, size_t>>> top(undelegated.begin(),
                                                                      undelegated.end());
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
    return a.second.first > b.second.first;
  });
  md << "\n## Top Undelegated Operators\n\n";
  if (top.empty()) {
    md << "None.\n";
  } else {
    md << "| Operator | Calls | Programs |\n|---|---|---|\n";
    for (size_t i = 0; i < top.size() && i < 20; ++i) {
      md << "| " << md_cell(top[i].first) << " | " << top[i].second.first << " | "
         << top[i].second.second << " |\n";
    }
  }

  std::vector<const CaseResult*> timed;
  for (const CaseResult& r : results) {
    if (r.exec_median_ms > 0) timed.push_back(&r);
  }
  std::stable_sort(timed.begin(), timed.end(), [](const CaseResult* a, const CaseResult* b) {
    return a->exec_median_ms > b->exec_median_ms;
  });
  md << "\n## Slowest Cases\n\n";
  if (timed.empty()) {
    md << "None timed.\n";
  } else {
    md << "| Test ID | Flow | Params | Load (ms) | Exec Median (ms) |\n|---|---|---|---|---|\n";
    for (size_t i = 0; i < timed.size() && i < 10; ++i) {
      const CaseResult& r = *timed[i];
      md << "| " << md_cell(r.test_id) << " | " << md_cell(r.flow) << " | " << md_cell(r.params)
         << " | " << fixed(r.load_ms) << " | " << fixed(r.exec_median_ms) << " |\n";
    }
  }

  md << "\n# Failed Tests\n\n";
  if (all.fail == 0) {
    md << "No failed tests.\n";
  } else {
    md << "| Test ID | Flow | Params | Result Detail | Error |\n|---|---|---|---|---|\n";
    for (const CaseResult& r : results) {
      if (r.result != "Fail") continue;
      md << "| " << md_cell(r.test_id) << " | " << md_cell(r.flow) << " | " << md_cell(r.params)
         << " | " << md_cell(r.detail) << " | " << md_cell(error_cell(r.error)) << " |\n";
    }
  }
  return md.str();
}

bool write_markdown(const std::vector<CaseResult>& results, const std::string& path,
                    std::string* error) {
  return write_file(path, markdown_summary(results), error);
}

}  // namespace ember::conformance
