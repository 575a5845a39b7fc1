// Product tool: makes a .bpte from a .pte and .npy test cases, no Python needed.
// bundler: writes a .bpte from a .pte and test cases given as .npy files.
//
//   bundler --program model.pte --out model.bpte \
//       [--cases_dir DIR] [--case METHOD:IN0.npy,IN1.npy[:OUT0.npy,...]]...
//
// --cases_dir reads the layout of test/models: DIR/<method>/run<k>/
// input<i>.npy and output<i>.npy, k and i from 0 upward. Each --case adds one
// test case. A 0-d int64 / bool / float64 array becomes a scalar when the
// method's input is a scalar. Exits non-zero with one line naming the
// method, test case and input that is wrong.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "examples/bundler/bundler.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/executor/program.h"

namespace {

using namespace ember;

int usage() {
  fprintf(stderr,
          "usage: bundler --program model.pte --out model.bpte [--cases_dir DIR] "
          "[--case METHOD:IN0.npy,IN1.npy[:OUT0.npy,...]]...\n");
  return 2;
}

int fail(const std::string& what) {
  const char* message = last_error_message();
  fprintf(stderr, "error: %s%s%s\n", what.c_str(), message[0] ? ": " : "", message);
  return 1;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

bool read_bytes(const std::string& path, std::vector<uint8_t>* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::vector<uint8_t> bytes;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  fclose(f);
  *out = std::move(bytes);
  return true;
}

// Method input tags, to turn 0-d arrays into scalars where expected.
std::map<std::string, std::vector<Tag>> input_tags(const std::vector<uint8_t>& pte) {
  std::map<std::string, std::vector<Tag>> tags;
  std::vector<uint8_t> copy(pte.size() + 64);
  void* aligned = copy.data() + (16 - reinterpret_cast<uintptr_t>(copy.data()) % 16) % 16;
  std::memcpy(aligned, pte.data(), pte.size());
  BufferDataLoader loader(aligned, pte.size());
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return tags;
  for (size_t m = 0; m < program->num_methods(); ++m) {
    Result<const char*> name = program->get_method_name(m);
    if (!name.ok()) continue;
    Result<MethodMeta> meta = program->method_meta(*name);
    if (!meta.ok()) continue;
    for (size_t i = 0; i < meta->num_inputs(); ++i) {
      Result<Tag> tag = meta->input_tag(i);
      tags[*name].push_back(tag.ok() ? *tag : Tag::Tensor);
    }
  }
  return tags;
}

bool load_values(const std::vector<std::string>& paths, const std::vector<Tag>* tags,
                 std::vector<BundlerValue>* out, std::string* error) {
  for (size_t i = 0; i < paths.size(); ++i) {
    if (paths[i].empty()) continue;
    Result<NpyArray> array = read_npy(paths[i]);
    if (!array.ok()) {
      *error = "reading " + paths[i];
      return false;
    }
    const Tag tag = tags != nullptr && i < tags->size() ? (*tags)[i] : Tag::Tensor;
    out->push_back(value_for_slot(std::move(*array), int(tag)));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string program_path, out_path, cases_dir;
  std::vector<std::string> cases;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag, std::string* dst) {
      const std::string prefix = std::string(flag) + "=";
      if (arg == flag && i + 1 < argc) {
        *dst = argv[++i];
        return true;
      }
      if (arg.rfind(prefix, 0) == 0) {
        *dst = arg.substr(prefix.size());
        return true;
      }
      return false;
    };
    std::string c;
    if (value("--program", &program_path) || value("--out", &out_path) ||
        value("--cases_dir", &cases_dir)) {
      continue;
    }
    if (value("--case", &c)) {
      cases.push_back(c);
      continue;
    }
    fprintf(stderr, "error: unknown argument '%s'\n", arg.c_str());
    return usage();
  }
  if (program_path.empty() || out_path.empty() || (cases_dir.empty() && cases.empty())) {
    return usage();
  }

  std::vector<uint8_t> pte;
  if (!read_bytes(program_path, &pte)) {
    fprintf(stderr, "error: cannot read program '%s'\n", program_path.c_str());
    return 1;
  }
  const auto tags = input_tags(pte);
  std::map<std::string, BundlerSuite> suites;
  std::string error;

  if (!cases_dir.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(cases_dir, ec)) {
      fprintf(stderr, "error: --cases_dir '%s' is not a directory\n", cases_dir.c_str());
      return 1;
    }
    for (const auto& entry : fs::directory_iterator(cases_dir)) {
      if (!entry.is_directory()) continue;
      const std::string method = entry.path().filename().string();
      auto it = tags.find(method);
      BundlerSuite& suite = suites[method];
      suite.method_name = method;
      for (int k = 0;; ++k) {
        const fs::path run = entry.path() / ("run" + std::to_string(k));
        if (!fs::is_directory(run)) break;
        std::vector<std::string> ins, outs;
        for (int i = 0; fs::exists(run / ("input" + std::to_string(i) + ".npy")); ++i) {
          ins.push_back((run / ("input" + std::to_string(i) + ".npy")).string());
        }
        for (int i = 0; fs::exists(run / ("output" + std::to_string(i) + ".npy")); ++i) {
          outs.push_back((run / ("output" + std::to_string(i) + ".npy")).string());
        }
        BundlerTestCase tc;
        if (!load_values(ins, it == tags.end() ? nullptr : &it->second, &tc.inputs,
                         &error) ||
            !load_values(outs, nullptr, &tc.expected_outputs, &error)) {
          return fail(error);
        }
        suite.test_cases.push_back(std::move(tc));
      }
    }
  }
  for (const std::string& c : cases) {
    const std::vector<std::string> parts = split(c, ':');
    if (parts.size() < 2 || parts.size() > 3 || parts[0].empty()) {
      fprintf(stderr, "error: --case '%s' is not METHOD:INPUTS[:OUTPUTS]\n", c.c_str());
      return 1;
    }
    auto it = tags.find(parts[0]);
    BundlerSuite& suite = suites[parts[0]];
    suite.method_name = parts[0];
    BundlerTestCase tc;
    if (!load_values(split(parts[1], ','), it == tags.end() ? nullptr : &it->second,
                     &tc.inputs, &error) ||
        (parts.size() == 3 &&
         !load_values(split(parts[2], ','), nullptr, &tc.expected_outputs, &error))) {
      return fail(error);
    }
    suite.test_cases.push_back(std::move(tc));
  }

  std::vector<BundlerSuite> list;
  size_t total = 0;
  for (auto& [name, suite] : suites) {
    total += suite.test_cases.size();
    list.push_back(std::move(suite));
  }
  Result<std::vector<uint8_t>> bundle =
      build_bundled_program(pte.data(), pte.size(), std::move(list));
  if (!bundle.ok()) return fail("bundling " + program_path);
  FILE* f = fopen(out_path.c_str(), "wb");
  if (f == nullptr || fwrite(bundle->data(), 1, bundle->size(), f) != bundle->size()) {
    if (f != nullptr) fclose(f);
    fprintf(stderr, "error: cannot write '%s'\n", out_path.c_str());
    return 1;
  }
  fclose(f);
  printf("wrote %s: %zu bytes, %zu method suite(s), %zu test case(s)\n", out_path.c_str(),
         bundle->size(), suites.size(), total);
  return 0;
}
