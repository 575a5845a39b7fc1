// Directories of generated bundled programs (<dir>/*.bpte plus a MANIFEST
// with one line per file: "<name> rtol=<r|-> atol=<a|-> ops=<a,b,...>"):
// reading the files 32-byte aligned, the MANIFEST, and the operator tables
// of the programs inside. Shared by the op suite, the LLM-operator
// fixtures, the operator coverage test (every registered operator is
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
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "runtime/core/error_message.h"
#include "schema/program_generated.h"

namespace ember::testing {

// A file's bytes at a 32-byte aligned address (so the program inside a
// bundle is aligned as the loader requires).
class AlignedFile {
 public:
  explicit AlignedFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> raw((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    storage_.resize(raw.size() / 8 + 5);
    data_ = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(storage_.data()) + 31) & ~uintptr_t(31));
    if (!raw.empty()) std::memcpy(data_, raw.data(), raw.size());
    size_ = raw.size();
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::vector<uint64_t> storage_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// One MANIFEST line: a tolerance below 0 means "not stated".
struct ManifestEntry {
  double rtol = -1;
  double atol = -1;
  std::string ops;
};

inline std::map<std::string, ManifestEntry> read_manifest(const std::string& dir) {
  std::map<std::string, ManifestEntry> entries;
  std::ifstream in(dir + "/MANIFEST");
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

// The stems of <dir>/*.bpte, sorted; empty when the directory is missing.
inline std::vector<std::string> bundled_program_names(const std::string& dir) {
  std::vector<std::string> names;
  if (!std::filesystem::exists(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".bpte") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

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
  const AlignedFile file(path);
  Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
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
