// The regression corpus: every file in test/regression/ is hostile (a
// fuzzer finding or a hand-made structural lie, see make_hostile.cpp) and
// MANIFEST names the outcome each must produce. The test runs each file
// through the path an application would use and asserts that exact Error,
// with a message, at both verification levels. Under the ASan/UBSan build
// (scripts/test.sh --sanitize) it also proves none of them corrupts memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backends/xnnpack/xnn_compiler.h"
#include "backends/xnnpack/xnn_payload.h"
#ifdef EMBER_TEST_VULKAN
#include "backends/vulkan/vk_compile.h"
#endif
#include "runtime/core/error_message.h"
#include "schema/program_generated.h"
#include "test/regression/regression_util.h"

namespace ember::testing {
namespace {

// No call instruction: the instruction set is kernel, delegate, move,
// jump-if-false and free, so a method cannot call itself or another method,
// and execute() is a loop over chains (no recursion in the executor either).
// The only unbounded behaviour bytes can express is a backward jump, which
// the instruction budget stops (Method::kDefaultInstructionLimit). If the
// schema ever gains an instruction, this fails and the limit needs review.
TEST(ExecutionLimits, NoRecursionIsExpressible) {
  static_assert(ember_fb::InstructionArguments::MAX == ember_fb::InstructionArguments::FreeCall,
                "a new instruction kind: check it cannot recurse, update this test");
  static_assert(static_cast<int>(ember_fb::InstructionArguments::FreeCall) == 5, "");
  EXPECT_GT(Method::kDefaultInstructionLimit, 0u);
}

// An XNNPACK delegate blob (`*.xnn`), through what the backend's init does
// (parse, validate, compile: XNNPACK runtimes created and reshaped), then
// set up and run with zeroed graph inputs and outputs, as the payload fuzz
// target does.
Error run_xnnpack_blob(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> aligned(bytes.size() / 8 + 1);
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  xnnpack::Payload payload;
  EMBER_RETURN_IF_ERROR(xnnpack::parse_payload(aligned.data(), bytes.size(), &payload));
  auto plan = std::make_unique<xnnpack::Plan>();
  EMBER_RETURN_IF_ERROR(xnnpack::build_graph(payload, nullptr, &plan->graph));
  EMBER_RETURN_IF_ERROR(xnnpack::compile_plan(plan.get()));
  std::vector<std::vector<uint8_t>> io;
  auto bind = [&](uint32_t v) {
    io.emplace_back(plan->graph.values[v].nbytes() + XNN_EXTRA_BYTES + 64, 0);
    plan->ptrs[v] = io.back().data();
  };
  for (uint32_t v : plan->graph.inputs) bind(v);
  for (uint32_t v : plan->graph.outputs) bind(v);
  return xnnpack::run_plan(plan.get());
}

#ifdef EMBER_TEST_VULKAN
// A Vulkan delegate blob (`*.vk`), through everything init does before it
// touches a device (vulkan::compile_blob), as the payload fuzz target does.
Error run_vulkan_blob(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> aligned(bytes.size() / 8 + 1);
  if (!bytes.empty()) std::memcpy(aligned.data(), bytes.data(), bytes.size());
  vulkan::Graph bounds;
  vulkan::Graph current;
  std::vector<vulkan::Dispatch> dispatches;
  return vulkan::compile_blob(aligned.data(), bytes.size(), &bounds, &current, &dispatches);
}
#endif

struct Entry {
  std::string file;
  Error expected;
  std::string needle;  // substring of the message; may be empty
};

std::vector<Entry> read_manifest() {
  std::vector<Entry> entries;
  std::ifstream in(regression_dir() + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Entry e;
    std::string error;
    fields >> e.file >> error;
    std::getline(fields >> std::ws, e.needle);
    e.expected = Error::Internal;
    EXPECT_TRUE(error_from_name(error, &e.expected))
        << "MANIFEST: unknown error '" << error << "'";
    entries.push_back(e);
  }
  return entries;
}

TEST(Regression, EveryFileIsListed) {
  std::map<std::string, bool> listed;
  for (const Entry& e : read_manifest()) listed[e.file] = true;
  size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(regression_dir())) {
    const std::string name = f.path().filename().string();
    const std::string ext = f.path().extension().string();
    if (ext != ".pte" && ext != ".bpte" && ext != ".npy" && ext != ".xnn" && ext != ".ptd" &&
        ext != ".vk") {
      continue;
    }
    ++files;
    EXPECT_TRUE(listed.count(name)) << name << " is not in MANIFEST";
  }
  for (const auto& [name, unused] : listed) {
    EXPECT_TRUE(std::filesystem::exists(regression_dir() + "/" + name))
        << "MANIFEST lists " << name << ", which is missing";
  }
  EXPECT_GT(files, 40u);
}

TEST(Regression, EveryFileGivesItsError) {
  const std::vector<Entry> entries = read_manifest();
  ASSERT_FALSE(entries.empty());
  for (const Entry& e : entries) {
    SCOPED_TRACE(e.file);
    const std::vector<uint8_t> bytes = read_file(regression_dir() + "/" + e.file);
    const std::string ext = std::filesystem::path(e.file).extension().string();
    std::vector<Error> results;
    if (ext == ".pte") {
      results.push_back(run_program(bytes, Program::Verification::Minimal));
      const std::string minimal_message = last_error_message();
      results.push_back(run_program(bytes, Program::Verification::InternalConsistency));
      EXPECT_EQ(results[0], results[1]) << "Minimal: " << minimal_message;
    } else if (ext == ".bpte") {
      results.push_back(run_bundle(bytes));
    } else if (ext == ".npy") {
      results.push_back(run_npy(bytes));
    } else if (ext == ".xnn") {
      results.push_back(run_xnnpack_blob(bytes));
    } else if (ext == ".ptd") {
      results.push_back(run_ptd(bytes));
    } else if (ext == ".vk") {
#ifdef EMBER_TEST_VULKAN
      results.push_back(run_vulkan_blob(bytes));
#else
      continue;  // this build has no Vulkan delegate
#endif
    } else {
      ADD_FAILURE() << "unknown kind of file";
      continue;
    }
    const Error got = results.back();
    if (std::getenv("EMBER_REGRESSION_PRINT") != nullptr) {  // to write MANIFEST
      printf("%s %s | %s\n", e.file.c_str(), error_name(got), last_error_message());
    }
    EXPECT_EQ(std::string(error_name(got)), error_name(e.expected)) << last_error_message();
    if (got != Error::Ok) {
      EXPECT_NE(last_error_message()[0], '\0') << "no message";
    }
    if (!e.needle.empty()) {
      EXPECT_NE(std::string(last_error_message()).find(e.needle), std::string::npos)
          << "message: " << last_error_message();
    }
  }
}

}  // namespace
}  // namespace ember::testing
