// The report writers: the CSV header against upstream's column list, RFC 4180
// quoting, report.json round trip, JUnit structure, Markdown totals.
#include "conformance/report.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

namespace ember::conformance {
namespace {

// Upstream's CSV_FIELD_NAMES (executorch 1.5.1,
// backends/test/suite/reporting.py, with MAX_LOGGED_MODEL_OUTPUTS = 2),
// written out here on purpose rather than taken from report.cpp.
const char* const kUpstreamHeader =
    "Test ID,Test Case,Subtest,Flow,Params,Result,Result Detail,Delegated,"
    "Quantize Time (s),Lower Time (s),Delegated Nodes,Undelegated Nodes,Delegated Ops,"
    "Undelegated Ops,PTE Size (Kb),Output 0 Error Max,Output 0 Error MAE,Output 0 SNR,"
    "Output 1 Error Max,Output 1 Error MAE,Output 1 SNR,Error";
// Ember's columns, from the issue 14 design.
const char* const kEmberColumns =
    "Delegated %,Delegate Blobs,Delegate Blob Bytes,Constant Bytes,Kernel Calls,"
    "Delegate Calls,Backends,Threads,Loader,Verification,Executions,Load (ms),"
    "Exec Min (ms),Exec Median (ms),Output 0 Error Rel,Output 1 Error Rel,Expected Failure";

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/ember_conformance_report_test_" +
         std::to_string(::getpid()) + "_" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Splits RFC 4180 text into records of fields (quoted fields may hold
// commas, doubled quotes and line breaks).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      row.push_back(field);
      field.clear();
      rows.push_back(row);
      row.clear();
      ++i;
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted);
  EXPECT_TRUE(field.empty() && row.empty()) << "text must end with CRLF";
  return rows;
}

CaseResult result(const std::string& id, const std::string& flow, const std::string& outcome,
                  const std::string& detail = "") {
  CaseResult r;
  r.test_id = id + "[0]";
  r.test_case = id;
  r.subtest = "0";
  r.flow = flow;
  r.params = "threads=1 backends=all loader=mmap verification=minimal executions=1";
  r.result = outcome;
  r.detail = detail;
  return r;
}

std::vector<CaseResult> sample_results() {
  std::vector<CaseResult> results;
  CaseResult a = result("xnnpack/partial", "xnnpack", "Pass");
  a.delegated = true;
  a.facts.pte_bytes = 4368;
  a.facts.kernel_calls = 1;
  a.facts.delegate_calls = 2;
  a.facts.undelegated_ops = {{"aten::cumsum.out", 1}};
  a.facts.delegated_ops = {{"XNNFullyConnected", 2}};
  a.facts.delegate_blobs = 2;
  a.facts.delegate_blob_bytes = 1472;
  a.facts.delegated_percent = 200.0 / 3;
  a.facts.backends = {"XnnpackBackend"};
  OutputStats o;
  o.max_abs = 0.00012;
  o.mae = 0.00001;
  o.sqnr_db = 88.25;
  o.max_rel = 2.5e-7;
  a.outputs = {o};
  a.load_ms = 1.5;
  a.exec_min_ms = 0.25;
  a.exec_median_ms = 0.3;
  results.push_back(a);

  CaseResult b = result("ops/add, \"quoted\"", "portable", "Fail", "Output Mismatch");
  b.error = "line one\nline two, with \"quotes\"";
  b.facts.pte_bytes = 1000;
  b.facts.kernel_calls = 3;
  b.facts.undelegated_ops = {{"aten::add.out", 3}};
  b.exec_median_ms = 2.0;
  results.push_back(b);

  CaseResult c = result("xnnpack/tiny_cnn", "xnnpack", "Skip", "Backend Not Available");
  c.config.backends = "portable";
  results.push_back(c);

  CaseResult d = result("models/crash", "portable", "Fail", "Process Crash");
  d.error = "killed by SIGSEGV <&>";
  d.xfail = true;
  d.xfail_reason = "planted crash";
  results.push_back(d);
  return results;
}

TEST(ConformanceReport, CsvHeaderIsUpstreamsColumnsThenEmbers) {
  EXPECT_EQ(csv_header(), std::string(kUpstreamHeader) + "," + kEmberColumns);
  const std::string path = temp_path("header.csv");
  ASSERT_TRUE(write_csv({}, path));
  EXPECT_EQ(read_text(path), csv_header() + "\r\n");
  std::remove(path.c_str());
}

TEST(ConformanceReport, CsvQuotesCommasQuotesAndNewlines) {
  EXPECT_EQ(csv_line({"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rx", ""}),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rx\",");
  const std::vector<CaseResult> results = sample_results();
  const std::string path = temp_path("report.csv");
  ASSERT_TRUE(write_csv(results, path));
  const auto rows = parse_csv(read_text(path));
  ASSERT_EQ(rows.size(), results.size() + 1);
  const size_t columns = rows[0].size();
  for (const auto& row : rows) EXPECT_EQ(row.size(), columns);
  EXPECT_EQ(rows[2][0], "ops/add, \"quoted\"[0]");
  EXPECT_EQ(rows[2][columns - 17 - 1], "line one\nline two, with \"quotes\"");
  std::remove(path.c_str());
}

TEST(ConformanceReport, CsvValuesFollowUpstreamFormats) {
  const std::vector<CaseResult> results = sample_results();
  const std::vector<std::string> header = parse_csv(csv_header() + "\r\n")[0];
  auto cell = [&](const CaseResult& r, const std::string& column) {
    const std::vector<std::string> row = csv_row(r);
    EXPECT_EQ(row.size(), header.size());
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == column) return row[i];
    }
    ADD_FAILURE() << "no column " << column;
    return std::string();
  };
  const CaseResult& a = results[0];
  EXPECT_EQ(cell(a, "Delegated"), "True");
  EXPECT_EQ(cell(results[1], "Delegated"), "False");
  EXPECT_EQ(cell(a, "Params"),
            "{\"threads\": \"1\", \"backends\": \"all\", \"loader\": \"mmap\", "
            "\"verification\": \"minimal\", \"executions\": \"1\"}");
  EXPECT_EQ(cell(a, "Quantize Time (s)"), "");  // no sidecar: empty, as upstream's None
  EXPECT_EQ(cell(a, "Delegated Nodes"), "2");
  EXPECT_EQ(cell(a, "Undelegated Nodes"), "1");
  EXPECT_EQ(cell(a, "Delegated Ops"), "{'XNNFullyConnected': 2}");
  EXPECT_EQ(cell(a, "Undelegated Ops"), "{'aten::cumsum.out': 1}");
  EXPECT_EQ(cell(a, "PTE Size (Kb)"), "4.368");
  EXPECT_EQ(cell(a, "Output 0 Error Max"), "0.000");
  EXPECT_EQ(cell(a, "Output 0 SNR"), "88.250");
  EXPECT_EQ(cell(a, "Output 1 Error Max"), "");
  EXPECT_EQ(cell(a, "Delegated %"), "66.67");
  EXPECT_EQ(cell(a, "Delegate Blob Bytes"), "1472");
  EXPECT_EQ(cell(a, "Backends"), "XnnpackBackend");
  EXPECT_EQ(cell(a, "Exec Median (ms)"), "0.300");
  EXPECT_EQ(cell(a, "Output 0 Error Rel"), "2.5e-07");
  EXPECT_EQ(cell(a, "Expected Failure"), "");
  EXPECT_EQ(cell(results[3], "Expected Failure"), "planted crash");
  // Nothing read from the program: empty cells, not zeros.
  EXPECT_EQ(cell(results[2], "PTE Size (Kb)"), "");
  EXPECT_EQ(cell(results[2], "Delegated Nodes"), "");
  EXPECT_EQ(cell(results[2], "Kernel Calls"), "");

  // The sidecar's facts win over the program's.
  CaseResult s = a;
  s.aot.present = true;
  s.aot.params = "{\"dtype\": \"torch.float32\"}";
  s.aot.lower_time_s = 1.23456;
  s.aot.delegated_nodes = 5;
  s.aot.undelegated_nodes = 0;
  s.aot.delegated_ops = {{"aten.linear.default", 2}, {"aten.addmm.default", 3}};
  EXPECT_EQ(cell(s, "Lower Time (s)"), "1.235");
  EXPECT_EQ(cell(s, "Delegated Nodes"), "5");
  EXPECT_EQ(cell(s, "Undelegated Nodes"), "0");
  EXPECT_EQ(cell(s, "Delegated Ops"), "{'aten.addmm.default': 3, 'aten.linear.default': 2}");
  EXPECT_EQ(cell(s, "Undelegated Ops"), "{}");
  EXPECT_EQ(cell(s, "Params").rfind("{\"dtype\": \"torch.float32\", \"threads\": \"1\"", 0), 0u);

  // Upstream keeps the first and last 200 characters of a long error.
  CaseResult e = results[1];
  e.error = std::string(300, 'a') + std::string(300, 'b');
  EXPECT_EQ(cell(e, "Error"), std::string(200, 'a') + "..." + std::string(200, 'b'));
}

TEST(ConformanceReport, JsonRoundTrip) {
  const std::vector<CaseResult> results = sample_results();
  const std::string path = temp_path("report.json");
  ASSERT_TRUE(write_json(results, path));
  const nlohmann::json j = nlohmann::json::parse(read_text(path));
  EXPECT_EQ(j["summary"]["total"], 4);
  EXPECT_EQ(j["summary"]["pass"], 1);
  EXPECT_EQ(j["summary"]["fail"], 2);
  EXPECT_EQ(j["summary"]["skip"], 1);
  std::vector<CaseResult> back;
  std::string error;
  ASSERT_TRUE(read_json_report(j, &back, &error)) << error;
  ASSERT_EQ(back.size(), results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(to_json(back[i]), to_json(results[i])) << i;
    EXPECT_EQ(csv_row(back[i]), csv_row(results[i])) << i;
  }
  EXPECT_FALSE(read_json_report(nlohmann::json::object(), &back, &error));
  std::remove(path.c_str());
}

// A small check that the XML is well formed: tags balance, attribute
// values are quoted, text holds no raw '<' or bare '&'.
bool well_formed(const std::string& xml, std::string* why) {
  std::vector<std::string> open;
  size_t i = xml.find("?>");
  if (xml.rfind("<?xml ", 0) != 0 || i == std::string::npos) return *why = "no declaration", false;
  for (i += 2; i < xml.size();) {
    if (xml[i] == '&') {
      const size_t end = xml.find(';', i);
      const std::string entity = xml.substr(i, end == std::string::npos ? 1 : end - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;")
        return *why = "bad entity at " + std::to_string(i), false;
      i = end + 1;
      continue;
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    bool in_quote = false;
    for (; j < xml.size() && (in_quote || xml[j] != '>'); ++j) {
      if (xml[j] == '"') in_quote = !in_quote;
      if (in_quote && (xml[j] == '<')) return *why = "raw < in attribute", false;
    }
    if (j >= xml.size()) return *why = "unterminated tag", false;
    std::string tag = xml.substr(i + 1, j - i - 1);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool self_closing = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" /"));
    if (closing) {
      if (open.empty() || open.back() != name) return *why = "mismatched </" + name + ">", false;
      open.pop_back();
    } else if (!self_closing) {
      open.push_back(name);
    }
    i = j + 1;
  }
  if (!open.empty()) return *why = "unclosed <" + open.back() + ">", false;
  return true;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ConformanceReport, JunitHasOneSuitePerFlowAndFailures) {
  const std::string path = temp_path("junit.xml");
  ASSERT_TRUE(write_junit(sample_results(), path));
  const std::string xml = read_text(path);
  std::string why;
  EXPECT_TRUE(well_formed(xml, &why)) << why << "\n" << xml;
  EXPECT_EQ(count(xml, "<testsuite "), 2u);  // portable, xnnpack
  EXPECT_EQ(count(xml, "<testcase "), 4u);
  EXPECT_EQ(count(xml, "<failure "), 2u);
  EXPECT_EQ(count(xml, "<skipped "), 1u);
  EXPECT_NE(xml.find("<testsuites name=\"ember_conformance\" tests=\"4\" failures=\"2\" "
                     "errors=\"0\" skipped=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"portable\" tests=\"2\" failures=\"2\""), std::string::npos);
  EXPECT_NE(xml.find("Process Crash: killed by SIGSEGV &lt;&amp;&gt;"), std::string::npos) << xml;
  EXPECT_NE(xml.find("ops/add, &quot;quoted&quot;[0]"), std::string::npos);
  // Control bytes XML cannot carry come out escaped.
  std::vector<CaseResult> odd = {result("bad", "portable", "Fail", "PTE Load Failed")};
  odd[0].error = std::string("id \x01\x02 end");
  ASSERT_TRUE(write_junit(odd, path));
  const std::string odd_xml = read_text(path);
  EXPECT_NE(odd_xml.find("id \\x01\\x02 end"), std::string::npos) << odd_xml;
  EXPECT_TRUE(well_formed(odd_xml, &why)) << why;
  std::remove(path.c_str());
}

TEST(ConformanceReport, MarkdownHasTotalsRatesOperatorsAndFailures) {
  std::vector<CaseResult> results = sample_results();
  // The same program under a second configuration is counted once.
  CaseResult again = results[0];
  again.config.threads = 2;
  again.params = "threads=2 backends=all loader=mmap verification=minimal executions=1";
  results.push_back(again);
  const std::string path = temp_path("summary.md");
  ASSERT_TRUE(write_markdown(results, path));
  const std::string md = read_text(path);
  EXPECT_EQ(md, markdown_summary(results));
  EXPECT_NE(md.find("# Summary"), std::string::npos);
  EXPECT_NE(md.find("- **Pass**: 2/4 (50.00%)"), std::string::npos) << md;
  EXPECT_NE(md.find("- **Fail**: 2/4 (50.00%)"), std::string::npos) << md;
  EXPECT_NE(md.find("- **Skip**: 1"), std::string::npos) << md;
  EXPECT_NE(md.find("- **Total**: 5"), std::string::npos) << md;
  EXPECT_NE(md.find("| xnnpack | all | 2 | 0 | 0 | 100.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| portable | all | 0 | 2 | 0 | 0.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| aten::add.out | 3 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| aten::cumsum.out | 1 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **Output Mismatch**: 1/3"), std::string::npos) << md;
  // Slowest first.
  EXPECT_LT(md.find("| ops/add, \"quoted\"[0] | portable"), md.find("| xnnpack/partial[0] |"));
  // Failures list, with the newline and pipe escaped for a table cell.
  EXPECT_NE(md.find("line one<br />line two"), std::string::npos) << md;
  EXPECT_NE(md.find("| models/crash[0] | portable |"), std::string::npos) << md;
}

}  // namespace
}  // namespace ember::conformance
