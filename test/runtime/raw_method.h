// A method loaded with the test's own memory and nothing more: unlike
// Module, nothing gives the outputs a program leaves to the application
// (not memory-planned) any memory, so a test sees what the runtime does
// with them.
#pragma once

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace ember::testing {

// A program from bytes, and one method loaded with the caller's own memory
// (no Module: nothing gives the unplanned outputs memory).
struct Raw {
  std::vector<uint8_t> bytes;
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

// `tracer` (optional) is attached at load (Program::load_method's).
inline std::unique_ptr<Raw> load_raw(std::vector<uint8_t> bytes, const std::string& method,
                                     EventTracer* tracer = nullptr) {
  auto r = std::make_unique<Raw>();
  r->bytes = std::move(bytes);
  r->loader = std::make_unique<BufferDataLoader>(r->bytes.data(), r->bytes.size());
  Result<Program> p = Program::load(r->loader.get());
  if (!p.ok()) return nullptr;
  r->program = std::make_unique<Program>(std::move(*p));
  Result<MethodMeta> meta = r->program->method_meta(method.c_str());
  if (!meta.ok()) return nullptr;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    r->planned.emplace_back(size_t(*meta->memory_planned_buffer_size(i)));
  }
  for (auto& b : r->planned) r->spans.emplace_back(b.data(), b.size());
  r->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(r->spans.data(), r->spans.size()));
  r->method_pool.resize(size_t(1) << 20);
  r->temp_pool.resize(size_t(1) << 20);
  r->method_allocator =
      std::make_unique<MemoryAllocator>(r->method_pool.data(), r->method_pool.size());
  r->temp_allocator = std::make_unique<MemoryAllocator>(r->temp_pool.data(), r->temp_pool.size());
  r->memory = std::make_unique<MemoryManager>(r->method_allocator.get(),
                                              r->planned_memory.get(), r->temp_allocator.get());
  Result<Method> m = r->program->load_method(method.c_str(), r->memory.get(), tracer);
  if (!m.ok()) return nullptr;
  r->method = std::make_unique<Method>(std::move(*m));
  return r;
}

inline std::unique_ptr<Raw> load_raw_file(const std::string& path, const std::string& method,
                                          EventTracer* tracer = nullptr) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return bytes.empty() ? nullptr : load_raw(std::move(bytes), method, tracer);
}

}  // namespace ember::testing
