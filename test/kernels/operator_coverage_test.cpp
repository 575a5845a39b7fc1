// Every registered operator is tested: each name in the kernel registry
// (the portable kernels and the prim ops, as linked into an application)
// must be called by a C++ kernel test or appear in an op-suite program.
// The test fails listing the names that are neither.
//
// How it knows what is covered, with no list kept by hand:
// - C++ tests: it runs the kernel test binaries (kernels_test and
//   prim_ops_test, built from test/kernels) with EMBER_OPERATOR_CALL_LOG
//   set. Their call helpers (call_kernel in kernel_test_util.h, call in
//   prim_ops/prim_test_util.h) record every operator they actually invoke
//   and write the names when the process exits (operator_call_log.h). A
//   name that a test only mentions (a registration check, a comment)
//   does not count; a call made through any other route is not seen, so
//   kernel tests must call through those helpers.
// - Op suite: it reads the operator table of the program inside every
//   test/models/ops/<case>.bpte, the files op_suite_test runs and
//   verifies against PyTorch's outputs.
// Adding an operator therefore fails this test until a test calls it or
// an op-suite case uses it; removing the last test of one does too.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/kernel/operator_registry.h"
#include "test/op_suite/op_suite_programs.h"

extern char** environ;

namespace ember::testing {
namespace {

std::set<std::string> registered_operators() {
  std::set<std::string> names;
  for (size_t i = 0; i < num_registered_kernels(); ++i) {
    names.insert(registered_kernel(i).name);
  }
  return names;
}

// Runs `binary` (all its tests, output discarded) with the call log
// pointed at a temporary file; returns the operators it recorded. Fails
// the test when the binary could not run or wrote no log.
std::set<std::string> operators_called_by(const std::string& binary) {
  std::set<std::string> names;
  const std::filesystem::path log =
      std::filesystem::temp_directory_path() /
      ("ember_operator_calls_" + std::to_string(getpid()) + "_" +
       std::filesystem::path(binary).filename().string());
  std::filesystem::remove(log);

  // The child sees this environment minus anything that would select a
  // subset of its tests, plus the log's path.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string var(*e);
    if (var.rfind("GTEST_", 0) == 0 || var.rfind("EMBER_OPERATOR_CALL_LOG=", 0) == 0) {
      continue;
    }
    env.push_back(var);
  }
  env.push_back("EMBER_OPERATOR_CALL_LOG=" + log.string());
  std::vector<char*> envp;
  for (std::string& var : env) envp.push_back(var.data());
  envp.push_back(nullptr);
  // A cross build runs the target's test through its emulator
  // (EMBER_TARGET_RUN_PREFIX: its words, space-separated; empty on the host).
  std::vector<std::string> words;
  std::istringstream prefix(EMBER_TARGET_RUN_PREFIX);
  for (std::string w; prefix >> w;) words.push_back(w);
  words.push_back(binary);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned =
      posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot run " << binary << ": " << std::strerror(spawned);
    return names;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) {
    ADD_FAILURE() << "lost " << binary;
    return names;
  }
  // A failing test still counts its calls (its own ctest entry reports
  // the failure); a crash leaves no log, and that is an error here.
  std::ifstream in(log);
  if (!in) {
    ADD_FAILURE() << binary << " wrote no operator call log (exit status " << status << ")";
    return names;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) names.insert(line);
  }
  std::filesystem::remove(log);
  EXPECT_FALSE(names.empty()) << binary << " called no operator";
  return names;
}

// The operators of every program in the op suite (test/models/ops).
std::set<std::string> operators_in_op_suite() {
  return operators_in_bundled_programs(EMBER_OP_SUITE_DIR);
}

TEST(OperatorCoverage, EveryRegisteredOperatorIsTested) {
  const std::set<std::string> registered = registered_operators();
  ASSERT_FALSE(registered.empty());

  std::set<std::string> covered = operators_in_op_suite();
  const size_t in_suite = covered.size();
  size_t called = 0;
  for (const char* binary : {EMBER_KERNELS_TEST_BINARY, EMBER_PRIM_OPS_TEST_BINARY}) {
    const std::set<std::string> names = operators_called_by(binary);
    called += names.size();
    covered.insert(names.begin(), names.end());
  }

  std::vector<std::string> missing;
  std::set_difference(registered.begin(), registered.end(), covered.begin(), covered.end(),
                      std::back_inserter(missing));
  std::string list;
  for (const std::string& name : missing) list += "\n  " + name;
  EXPECT_TRUE(missing.empty())
      << missing.size() << " of " << registered.size()
      << " registered operators have no C++ kernel test (a call through call_kernel or "
         "the prim ops' call) and no op-suite case:"
      << list;
  printf("operator coverage: %zu registered, %zu in op-suite programs, %zu called by "
         "kernel tests, %zu uncovered\n",
         registered.size(), in_suite, called, missing.size());
}

}  // namespace
}  // namespace ember::testing
