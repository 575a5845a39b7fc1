// Helpers for the bundled program tests: aligned file bytes, and a program
// loaded from a bundle.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"

namespace ember::testing {

inline std::string models_dir() { return EMBER_TEST_MODELS_DIR; }
inline std::string bundled_fixture(const std::string& name) {
  return models_dir() + "/bundled/" + name + ".bpte";
}
inline std::string upstream_bpte() {
  return std::string(EMBER_UPSTREAM_PTE_DIR) + "/bundled_add_mul_int.bpte";
}

// Bytes in 64-byte aligned memory (the runtime wants 16, a bundle 32).
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(const std::vector<uint8_t>& v) { assign(v.data(), v.size()); }
  void assign(const void* data, size_t size) {
    size_ = size;
    mem_.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) / 64 * 64 + 64)));
    std::memcpy(mem_.get(), data, size);
  }
  uint8_t* data() const { return mem_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t, void (*)(void*)> mem_{nullptr, std::free};
  size_t size_ = 0;
};

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::vector<uint8_t> bytes;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return bytes;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  fclose(f);
  return bytes;
}

// A bundle and the module loaded from its embedded program.
struct LoadedBundle {
  AlignedBytes bytes;
  std::unique_ptr<BundledProgram> bundle;
  std::unique_ptr<Module> module;
};

inline ::testing::AssertionResult load_bundle(const std::vector<uint8_t>& file,
                                              LoadedBundle* out) {
  out->bytes.assign(file.data(), file.size());
  Result<BundledProgram> b = BundledProgram::from(out->bytes.data(), out->bytes.size());
  if (!b.ok()) {
    return ::testing::AssertionFailure() << "BundledProgram::from: " << last_error_message();
  }
  out->bundle = std::make_unique<BundledProgram>(*b);
  Result<std::unique_ptr<Module>> m = Module::load(
      std::make_unique<BufferDataLoader>(b->program_data(), b->program_size()));
  if (!m.ok()) {
    return ::testing::AssertionFailure() << "Module::load: " << last_error_message();
  }
  out->module = std::move(*m);
  return ::testing::AssertionSuccess();
}

// Loads, runs and verifies test case `k` of `method`; `reports` gets one
// entry per output.
inline Error run_case(LoadedBundle& lb, const std::string& method, size_t k, double rtol,
                      double atol, std::vector<OutputReport>* reports) {
  Result<Method*> m = lb.module->method(method);
  if (!m.ok()) return m.error();
  EMBER_RETURN_IF_ERROR(load_bundled_input(**m, *lb.bundle, k));
  EMBER_RETURN_IF_ERROR((*m)->execute());
  reports->assign((*m)->outputs_size(), OutputReport());
  return verify_method_outputs(**m, *lb.bundle, k, rtol, atol, reports->data(),
                               reports->size());
}

}  // namespace ember::testing
