// Running executor_runner from a test as a user runs it: its exit status
// and what it printed (stdout and stderr together).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ember::testing {

struct RunResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

inline RunResult run_runner(const std::string& args) {
  const std::string cmd = std::string(EMBER_RUNNER_PATH) + " " + args + " 2>&1";
  RunResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// Lines starting with "error: ".
inline size_t count_error_lines(const std::string& s) {
  size_t count = 0, pos = 0;
  while ((pos = s.find("error: ", pos)) != std::string::npos) {
    if (pos == 0 || s[pos - 1] == '\n') ++count;
    pos += 7;
  }
  return count;
}

}  // namespace ember::testing
