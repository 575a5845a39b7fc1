// Sample: the smallest firmware that loads and runs a program (built for its size).
// The smallest firmware that loads and runs a program: what
// scripts/binary_sizes.sh --target measures (the runtime core alone, or
// with a selective build of kernels). The program bytes come from memory
// the linker cannot see into, so nothing is folded away; it is built, not
// run.
#include <cstdint>

#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace {
alignas(16) uint8_t g_method_pool[4096];
alignas(16) uint8_t g_planned[4096];
alignas(16) uint8_t g_temp[1024];
}  // namespace

// Where a firmware would keep its program (flash); set by a debugger.
extern "C" {
const uint8_t* volatile ember_probe_program = nullptr;
volatile uint32_t ember_probe_program_size = 0;
}

int main() {
  ember::BufferDataLoader loader(ember_probe_program, ember_probe_program_size);
  ember::Result<ember::Program> program = ember::Program::load(&loader);
  if (!program.ok()) return 1;
  ember::Result<ember::MethodMeta> meta = program->method_meta("forward");
  if (!meta.ok() || meta->method_allocator_bytes() > sizeof(g_method_pool)) return 2;
  ember::Span<uint8_t> planned_span(g_planned, sizeof(g_planned));
  ember::HierarchicalAllocator planned(ember::Span<ember::Span<uint8_t>>(&planned_span, 1));
  ember::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
  ember::MemoryAllocator temp(g_temp, sizeof(g_temp));
  ember::MemoryManager memory(&method_allocator, &planned, &temp);
  ember::Result<ember::Method> method = program->load_method("forward", &memory);
  if (!method.ok()) return 3;
  return method->execute() == ember::Error::Ok ? 0 : 4;
}
