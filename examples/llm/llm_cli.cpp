#include "examples/llm/llm_cli.h"

#include <cstdio>
#include <sstream>

#include "runtime/core/error_message.h"

namespace ember::llm::cli {

int fail(const char* what) {
  std::fprintf(stderr, "error: %s: %s\n", what, last_error_message());
  return 1;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void print_ids(const char* label, const std::vector<uint64_t>& ids) {
  std::printf("%s:", label);
  for (uint64_t id : ids) std::printf(" %llu", static_cast<unsigned long long>(id));
  std::printf("\n");
}

void print_stats(const Stats& stats) {
  const std::string report = stats_report(stats);
  const size_t first_line = report.find('\n');
  std::printf("%s\n", report.substr(0, first_line).c_str());
  std::fprintf(stderr, "%s", report.substr(first_line + 1).c_str());
}

}  // namespace ember::llm::cli
