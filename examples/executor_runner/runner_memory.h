// executor_runner --memory_report: where the process's memory goes. RSS is
// sampled at each stage (before the program loads, after it loads, after
// each method loads and after its executions); the report adds the peak,
// the growth over the first sample, each method's planned buffers and
// method allocator, and what the XNNPACK delegates hold (packed weights,
// program constants released once packed). Linux (/proc/self/status);
// elsewhere RSS reads as 0.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "extension/module/module.h"

namespace ember::runner {

// A "Name:   123 kB" field of /proc/self/status in KiB ("VmRSS", "VmHWM":
// the peak, which exec resets); 0 when absent.
long status_kib(const char* field);

class MemoryReport {
 public:
  // Records RSS now under `stage` ("program loaded").
  void sample(const std::string& stage);
  // Prints the table and the breakdown for `methods` of `module`.
  void print(FILE* out, const Module& module, const std::vector<std::string>& methods,
             size_t file_bytes) const;

 private:
  struct Sample {
    std::string stage;
    long rss_kib, anon_kib, file_kib, peak_kib;
  };
  std::vector<Sample> samples_;
};

}  // namespace ember::runner
