// A committed .bpte fixture loaded for a test: its bytes copied into
// 32-byte aligned memory, the BundledProgram over them and the Module
// loaded from its program, with method "forward". The one loader the
// backend fixture tests (demo, XNNPACK, Vulkan) share.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"

namespace ember::testing {

struct LoadedBundle {
  std::vector<uint64_t> storage;
  std::unique_ptr<BundledProgram> bundle;
  std::unique_ptr<Module> module;
  Method* method = nullptr;
  // When loading "forward" failed: whether for missing operators, and why.
  bool missing_operators = false;
  std::string error;
};

inline ::testing::AssertionResult load_bundle(const std::string& path, LoadedBundle* l,
                                              EventTracer* tracer = nullptr) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> raw((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
  if (raw.empty()) return ::testing::AssertionFailure() << "cannot read " << path;
  l->storage.assign(raw.size() / 8 + 8, 0);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(l->storage.data()) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());
  Result<BundledProgram> b = BundledProgram::from(bytes, raw.size());
  if (!b.ok()) return ::testing::AssertionFailure() << last_error_message();
  l->bundle = std::make_unique<BundledProgram>(*b);
  Result<std::unique_ptr<Module>> m = Module::load(
      std::make_unique<BufferDataLoader>(b->program_data(), b->program_size()));
  if (!m.ok()) return ::testing::AssertionFailure() << "load: " << last_error_message();
  l->module = std::move(*m);
  Result<Method*> method = l->module->method("forward", tracer);
  if (!method.ok()) {
    l->missing_operators = method.error() == Error::OperatorMissing;
    l->error = last_error_message();
    return ::testing::AssertionFailure() << "method: " << last_error_message();
  }
  l->method = *method;
  return ::testing::AssertionSuccess();
}

}  // namespace ember::testing
