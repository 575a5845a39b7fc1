// Reads the operator tables of the op-suite programs: the set of operator
// names ("aten::add.out") used by the program inside every <dir>/*.bpte.
// Shared by the operator coverage test (every registered operator is
// tested) and the upstream coverage test (every upstream portable operator
// has an op-suite case). Test-only code: gtest failures name the file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "runtime/core/error_message.h"
#include "schema/program_generated.h"

namespace ember::testing {

// Adds the operators of one serialized program to `names`; false when the
// program does not verify.
inline bool add_program_operators(const uint8_t* program, size_t size,
                                  std::set<std::string>* names) {
  flatbuffers::Verifier verifier(program, size);
  if (!ember_fb::VerifyProgramBuffer(verifier)) return false;
  const ember_fb::Program* fb = ember_fb::GetProgram(program);
  if (fb->execution_plan() == nullptr) return true;
  for (const ember_fb::ExecutionPlan* plan : *fb->execution_plan()) {
    if (plan->operators() == nullptr) continue;
    for (const ember_fb::Operator* op : *plan->operators()) {
      if (op->name() == nullptr) continue;
      std::string name = op->name()->str();
      if (op->overload() != nullptr && op->overload()->size() > 0) {
        name += "." + op->overload()->str();
      }
      names->insert(name);
    }
  }
  return true;
}

// The operators of the program inside one .bpte file; a gtest failure
// naming the file when it cannot be read.
inline std::set<std::string> operators_in_bundled_program(const std::filesystem::path& path) {
  std::set<std::string> names;
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> raw((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  // Keep the bundle 32-byte aligned so the embedded program is aligned.
  std::vector<uint64_t> storage(raw.size() / 8 + 5);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(storage.data()) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());
  Result<BundledProgram> bundle = BundledProgram::from(bytes, raw.size());
  if (!bundle.ok()) {
    ADD_FAILURE() << path.filename() << ": " << last_error_message();
    return names;
  }
  if (!add_program_operators(static_cast<const uint8_t*>(bundle->program_data()),
                             bundle->program_size(), &names)) {
    ADD_FAILURE() << path.filename() << ": the program does not verify";
  }
  return names;
}

// The .bpte files in `dir`, sorted.
inline std::vector<std::filesystem::path> bundled_programs_in(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".bpte") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_FALSE(files.empty()) << "no bundled programs in " << dir;
  return files;
}

// The operators of every program in `dir`/*.bpte.
inline std::set<std::string> operators_in_bundled_programs(const std::string& dir) {
  std::set<std::string> names;
  for (const std::filesystem::path& file : bundled_programs_in(dir)) {
    const std::set<std::string> ops = operators_in_bundled_program(file);
    names.insert(ops.begin(), ops.end());
  }
  return names;
}

}  // namespace ember::testing
