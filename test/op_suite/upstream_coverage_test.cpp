// Every operator of upstream's portable kernel library has an op-suite case:
// each name in upstream_portable_ops.txt (upstream's portable
// functions.yaml, as exported programs name the operators) must appear in
// the operator table of at least one test/models/ops/*.bpte, the programs
// op_suite_test verifies against PyTorch's outputs. The test prints every
// operator it checked with the number of programs that use it, and fails
// naming each one that no program uses. An operator the list marks as one
// upstream's exporter cannot write (with the reason) must instead be
// registered; operator_coverage_test requires a C++ test to call it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "runtime/kernel/operator_registry.h"
#include "test/op_suite/op_suite_programs.h"

namespace ember::testing {
namespace {

const std::string kOpsDir = std::string(EMBER_TEST_MODELS_DIR) + "/ops";

struct UpstreamOperator {
  std::string name;
  std::string no_program_reason;  // empty: an op-suite program must use it
};

std::vector<UpstreamOperator> upstream_operators() {
  std::vector<UpstreamOperator> ops;
  std::ifstream in(EMBER_UPSTREAM_OPS_LIST);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find(" | ");
    if (bar == std::string::npos) {
      ops.push_back({line, ""});
    } else {
      ops.push_back({line.substr(0, bar), line.substr(bar + 3)});
    }
  }
  return ops;
}

bool is_registered(const std::string& name) {
  for (size_t i = 0; i < num_registered_kernels(); ++i) {
    if (name == registered_kernel(i).name) return true;
  }
  return false;
}

// How many op-suite programs use each operator.
std::map<std::string, int> programs_per_operator() {
  std::map<std::string, int> uses;
  for (const std::filesystem::path& file : bundled_programs_in(kOpsDir)) {
    for (const std::string& name : operators_in_bundled_program(file)) ++uses[name];
  }
  return uses;
}

TEST(UpstreamPortableOperators, EveryOneHasAnOpSuiteCase) {
  const std::vector<UpstreamOperator> upstream = upstream_operators();
  ASSERT_GE(upstream.size(), 200u) << "cannot read " << EMBER_UPSTREAM_OPS_LIST;
  const std::map<std::string, int> uses = programs_per_operator();

  std::string missing;
  size_t missing_count = 0;
  printf("upstream portable operators checked against the op suite (programs using each):\n");
  for (const UpstreamOperator& op : upstream) {
    auto found = uses.find(op.name);
    const int n = found == uses.end() ? 0 : found->second;
    if (!op.no_program_reason.empty()) {
      const bool registered = is_registered(op.name);
      printf("  %-50s %d (C++ tests only: %s)%s\n", op.name.c_str(), n,
             op.no_program_reason.c_str(), registered ? "" : " NOT REGISTERED");
      if (!registered) {
        missing += "\n  " + op.name + " (not registered)";
        ++missing_count;
      }
      continue;
    }
    printf("  %-50s %d\n", op.name.c_str(), n);
    if (n == 0) {
      missing += "\n  " + op.name;
      ++missing_count;
    }
  }
  printf("%zu upstream portable operators, %zu without an op-suite case\n", upstream.size(),
         missing_count);
  EXPECT_EQ(missing_count, 0u) << missing_count
                               << " upstream portable operators have no op-suite program:"
                               << missing;
}

}  // namespace
}  // namespace ember::testing
