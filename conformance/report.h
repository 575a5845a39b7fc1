// The four reports of a conformance run, written from its CaseResults.
//
//   report.csv   upstream's columns first, exactly as upstream's suite
//                (backends/test/suite/reporting.py) writes them, then
//                Ember's (csv_header()). Values follow upstream: booleans
//                "True"/"False"; times, errors and sizes "%.3f"; a value
//                that is unknown is an empty cell; Params a JSON object of
//                strings; the Ops columns a Python dict of counts sorted by
//                name ("{'aten::add.out': 2}"); Error cut to its first and
//                last 200 characters. RFC 4180: comma separated, CRLF line
//                ends, a field holding a comma, quote, CR or LF is quoted
//                with its quotes doubled.
//   report.json  {"format": "ember-conformance-report", "version": 1,
//                 "summary": {...counts...}, "results": [to_json(result)...]}
//                read back by read_json_report() (shard merging).
//   junit.xml    one <testsuite> per flow, one <testcase> per result;
//                <failure> for "Fail" (message: the detail; text: detail and
//                error), <skipped> for "Skip".
//   summary.md   totals, pass rate per flow and backends and per parameter
//                set, failure breakdown, top undelegated operators, slowest
//                cases, failed tests.
//
// Each writer returns false with *error set when the file cannot be
// written; the results are never changed. Tool code (heap, iostreams).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/case_result.h"

namespace ember::conformance {

// Upstream's CSV columns, in order, then Ember's.
const std::vector<std::string>& upstream_csv_columns();
const std::vector<std::string>& ember_csv_columns();
// Both lists joined with commas (no line end): the CSV's first line.
std::string csv_header();

// One CSV row per result (as the report writes it, without the line end).
std::vector<std::string> csv_row(const CaseResult& result);
// One record, RFC 4180 quoted, without the line end.
std::string csv_line(const std::vector<std::string>& fields);

// report.json's document, and reading one back (false with *error naming
// the result and member that is wrong).
nlohmann::json json_report(const std::vector<CaseResult>& results);
bool read_json_report(const nlohmann::json& report, std::vector<CaseResult>* results,
                      std::string* error);

// The Markdown summary as text.
std::string markdown_summary(const std::vector<CaseResult>& results);

bool write_csv(const std::vector<CaseResult>& results, const std::string& path,
               std::string* error = nullptr);
bool write_json(const std::vector<CaseResult>& results, const std::string& path,
                std::string* error = nullptr);
bool write_junit(const std::vector<CaseResult>& results, const std::string& path,
                 std::string* error = nullptr);
bool write_markdown(const std::vector<CaseResult>& results, const std::string& path,
                    std::string* error = nullptr);

}  // namespace ember::conformance
