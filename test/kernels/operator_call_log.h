// Which operators a test binary called, for the operator coverage test
// (test/kernels/operator_coverage_test.cpp).
//
// The kernel test helpers (call_kernel in kernel_test_util.h, call in
// prim_ops/prim_test_util.h) record the full name of every operator they
// invoke ("aten::add.out"), once the registry has found it. When the
// process exits, the names are written one per line to the file named by
// the environment variable EMBER_OPERATOR_CALL_LOG, if it is set (the
// coverage test sets it when it runs the kernel test binaries); otherwise
// nothing is written. Test code only: the library never reads it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace ember::testing {

class OperatorCallLog {
 public:
  static OperatorCallLog& instance() {
    static OperatorCallLog log;
    return log;
  }

  void record(const std::string& op) {
    std::lock_guard<std::mutex> lock(mutex_);
    names_.insert(op);
  }

  ~OperatorCallLog() {
    const char* path = std::getenv("EMBER_OPERATOR_CALL_LOG");
    if (path == nullptr || path[0] == '\0') {
      return;
    }
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) {
      std::fprintf(stderr, "operator call log: cannot write %s\n", path);
      return;
    }
    for (const std::string& name : names_) {
      std::fprintf(f, "%s\n", name.c_str());
    }
    std::fclose(f);
  }

 private:
  OperatorCallLog() = default;
  std::mutex mutex_;
  std::set<std::string> names_;
};

inline void record_operator_call(const std::string& op) {
  OperatorCallLog::instance().record(op);
}

}  // namespace ember::testing
