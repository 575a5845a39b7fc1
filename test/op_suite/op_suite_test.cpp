// The generated operator suite: every test/models/ops/<case>.bpte (written
// by examples/export/export_op_suite.py with PyTorch's outputs) is loaded,
// every test case is run on the portable kernels and verified with the
// bundled verifier. Tolerances: per dtype of the output below, unless the
// case's MANIFEST line overrides them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"

namespace ember::testing {
namespace {

const std::string kOpsDir = std::string(EMBER_TEST_MODELS_DIR) + "/ops";

struct Tolerance {
  double rtol;
  double atol;
};

// Defaults by output dtype: float32 close to its epsilon with room for
// accumulation order; 16-bit floats a few of their ulps; exact otherwise.
Tolerance default_tolerance(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return {1e-5, 1e-6};
    case ScalarType::Double: return {1e-10, 1e-12};
    case ScalarType::Half: return {1e-3, 1e-3};
    case ScalarType::BFloat16: return {1e-2, 1e-2};
    default: return {0.0, 0.0};
  }
}

struct ManifestEntry {
  double rtol = -1;
  double atol = -1;
  std::string ops;
};

std::map<std::string, ManifestEntry> read_manifest() {
  std::map<std::string, ManifestEntry> entries;
  std::ifstream in(kOpsDir + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, word;
    words >> name;
    ManifestEntry e;
    while (words >> word) {
      if (word.rfind("rtol=", 0) == 0 && word != "rtol=-") e.rtol = std::stod(word.substr(5));
      if (word.rfind("atol=", 0) == 0 && word != "atol=-") e.atol = std::stod(word.substr(5));
      if (word.rfind("ops=", 0) == 0) e.ops = word.substr(4);
    }
    entries[name] = e;
  }
  return entries;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  if (!std::filesystem::exists(kOpsDir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(kOpsDir)) {
    if (entry.path().extension() == ".bpte") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

class OpSuite : public ::testing::TestWithParam<std::string> {};

TEST_P(OpSuite, EveryTestCaseVerifies) {
  const std::string name = GetParam();
  static const std::map<std::string, ManifestEntry> manifest = read_manifest();
  const std::vector<uint8_t> raw = read_bytes(kOpsDir + "/" + name + ".bpte");
  // Keep the bundle 32-byte aligned so the embedded program is aligned.
  std::vector<uint64_t> aligned((raw.size() + 7) / 8 + 4);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(aligned.data());
  bytes = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(bytes) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());

  Result<BundledProgram> bundle = BundledProgram::from(bytes, raw.size());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  Result<std::unique_ptr<Module>> module = Module::load(std::make_unique<BufferDataLoader>(
      bundle->program_data(), bundle->program_size()));
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  Result<size_t> cases = bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  ASSERT_GT(*cases, 0u);

  auto found = manifest.find(name);
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    ASSERT_EQ(load_bundled_input(**method, *bundle, k), Error::Ok) << last_error_message();
    ASSERT_EQ((*method)->execute(), Error::Ok) << last_error_message();
    for (size_t o = 0; o < (*method)->outputs_size(); ++o) {
      const EValue& out = (*method)->get_output(o);
      Tolerance tol = default_tolerance(out.is_tensor() ? out.to_tensor().scalar_type()
                                                        : ScalarType::Double);
      if (found != manifest.end() && found->second.rtol >= 0) tol.rtol = found->second.rtol;
      if (found != manifest.end() && found->second.atol >= 0) tol.atol = found->second.atol;
      OutputReport reports[16];
      const Error err =
          verify_method_outputs(**method, *bundle, k, tol.rtol, tol.atol, reports, 16);
      EXPECT_EQ(err, Error::Ok) << last_error_message();
      if (err != Error::Ok) break;
    }
  }
  RecordProperty("test_cases", int(*cases));
}

INSTANTIATE_TEST_SUITE_P(Generated, OpSuite, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// Prints how much the suite covers (operators and test cases).
TEST(OpSuiteSummary, CountsOperatorsAndCases) {
  const std::vector<std::string> names = case_names();
  const std::map<std::string, ManifestEntry> manifest = read_manifest();
  std::set<std::string> ops;
  for (const auto& name : names) {
    auto found = manifest.find(name);
    ASSERT_NE(found, manifest.end()) << name << " is missing from MANIFEST";
    std::stringstream list(found->second.ops);
    std::string op;
    while (std::getline(list, op, ',')) ops.insert(op);
  }
  size_t total_cases = 0;
  for (const auto& name : names) {
    const std::vector<uint8_t> raw = read_bytes(kOpsDir + "/" + name + ".bpte");
    std::vector<uint64_t> aligned((raw.size() + 7) / 8);
    std::memcpy(aligned.data(), raw.data(), raw.size());
    Result<BundledProgram> bundle = BundledProgram::from(aligned.data(), raw.size());
    ASSERT_TRUE(bundle.ok()) << name << ": " << last_error_message();
    total_cases += *bundle->num_test_cases("forward");
  }
  printf("op suite: %zu files, %zu operators, %zu test cases\n", names.size(), ops.size(),
         total_cases);
  EXPECT_FALSE(names.empty());
}

}  // namespace
}  // namespace ember::testing
