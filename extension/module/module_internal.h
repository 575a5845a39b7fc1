// Internal to extension/module (not a public header): the memory Module
// keeps for each loaded method, shared by module.cpp (loading),
// module_io.cpp (inputs, execute, outputs) and module_bundled.cpp (verify).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/method.h"

namespace ember {

namespace module_detail {
struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};
}  // namespace module_detail
using CBuffer = std::unique_ptr<uint8_t, module_detail::FreeDeleter>;

struct Module::LoadedMethod {
  std::string name;
  CBuffer method_pool;
  // Planned buffers come from calloc: sizes are read from the file, so a
  // failed allocation must be an Error, not an exception; calloc also maps
  // large zeroed buffers lazily.
  std::vector<CBuffer> planned;
  std::vector<Span<uint8_t>> planned_spans;
  CBuffer temp_pool;
  std::unique_ptr<MemoryAllocator> method_allocator;
  std::unique_ptr<MemoryAllocator> temp_allocator;
  std::unique_ptr<HierarchicalAllocator> planned_memory;
  std::unique_ptr<MemoryManager> memory_manager;
  std::unique_ptr<Method> method;
  // The method's prepared operands (Method::prepare_operands), 64-byte
  // aligned; empty when it has none or the Module was told not to.
  CBuffer prepared_operands;
  // Buffers for the outputs the program leaves to the application
  // (not memory-planned), one per such output.
  std::vector<CBuffer> outputs;
  // Per input: the TensorPtr last set through Module, kept alive because an
  // input the program does not plan is read in place (null otherwise).
  std::vector<TensorPtr> held_inputs;
  // verify(): memory the bundled test case's inputs are copied into; an
  // unplanned input keeps pointing here until it is set again.
  std::vector<uint8_t> bundle_input_pool;
  std::unique_ptr<MemoryAllocator> bundle_input_allocator;
};

}  // namespace ember
