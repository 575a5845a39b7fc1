// What ember_llm and ember_asr print and parse alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "extension/llm/runner/stats.h"

namespace ember::llm::cli {

// "error: WHAT: <last_error_message()>" on stderr; returns 1 (the exit
// status for a failed load or run).
int fail(const char* what);

// The non-empty parts of a comma-separated list.
std::vector<std::string> split_commas(const std::string& text);

// "LABEL: id id ..." on stdout.
void print_ids(const char* label, const std::vector<uint64_t>& ids);

// Upstream's "PyTorchObserver {...}" line on stdout, the human report on
// stderr.
void print_stats(const Stats& stats);

}  // namespace ember::llm::cli
