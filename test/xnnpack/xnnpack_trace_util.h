// Loading an XNNPACK fixture (test/models/xnnpack/<name>.bpte) with an
// event tracer attached at load, for the delegate's tracing tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/core/event_tracer.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace ember::testing {

// A bundle's program and its "forward" method, loaded with its own memory
// and `tracer` (null: none) attached at load.
struct Loaded {
  std::vector<uint64_t> storage;
  std::unique_ptr<BundledProgram> bundle;
  std::unique_ptr<BufferDataLoader> loader;
  std::unique_ptr<Program> program;
  std::vector<std::vector<uint8_t>> planned;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned_memory;
  std::vector<uint8_t> method_pool, temp_pool;
  std::unique_ptr<MemoryAllocator> method_allocator, temp_allocator;
  std::unique_ptr<MemoryManager> memory;
  std::unique_ptr<Method> method;
};

inline ::testing::AssertionResult load(const std::string& name, EventTracer* tracer, Loaded* l) {
  const std::string path = std::string(EMBER_TEST_MODELS_DIR) + "/xnnpack/" + name + ".bpte";
  std::ifstream in(path, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.empty()) return ::testing::AssertionFailure() << "cannot read " << path;
  l->storage.assign(raw.size() / 8 + 8, 0);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(l->storage.data()) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());
  Result<BundledProgram> b = BundledProgram::from(bytes, raw.size());
  if (!b.ok()) return ::testing::AssertionFailure() << last_error_message();
  l->bundle = std::make_unique<BundledProgram>(*b);
  l->loader = std::make_unique<BufferDataLoader>(b->program_data(), b->program_size());
  Result<Program> p = Program::load(l->loader.get());
  if (!p.ok()) return ::testing::AssertionFailure() << last_error_message();
  l->program = std::make_unique<Program>(std::move(*p));
  Result<MethodMeta> meta = l->program->method_meta("forward");
  if (!meta.ok()) return ::testing::AssertionFailure() << last_error_message();
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    l->planned.emplace_back(size_t(*meta->memory_planned_buffer_size(i)));
  }
  for (auto& buf : l->planned) l->spans.emplace_back(buf.data(), buf.size());
  l->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(l->spans.data(), l->spans.size()));
  l->method_pool.resize(size_t(4) << 20);
  l->temp_pool.resize(size_t(4) << 20);
  l->method_allocator =
      std::make_unique<MemoryAllocator>(l->method_pool.data(), l->method_pool.size());
  l->temp_allocator = std::make_unique<MemoryAllocator>(l->temp_pool.data(), l->temp_pool.size());
  l->memory = std::make_unique<MemoryManager>(l->method_allocator.get(),
                                              l->planned_memory.get(), l->temp_allocator.get());
  Result<Method> m = l->program->load_method("forward", l->memory.get(), tracer);
  if (!m.ok()) return ::testing::AssertionFailure() << "load_method: " << last_error_message();
  l->method = std::make_unique<Method>(std::move(*m));
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult run_case(Loaded* l, size_t test_case) {
  if (load_bundled_input(*l->method, *l->bundle, test_case) != Error::Ok ||
      l->method->execute() != Error::Ok) {
    return ::testing::AssertionFailure() << last_error_message();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ember::testing
