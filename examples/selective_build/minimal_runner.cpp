// Sample: the smallest embedding of the runtime; read it and copy it.
// ember_minimal_runner: the smallest useful embedding of the runtime, the
// program scripts/binary_sizes.sh measures.
//
//   ember_minimal_runner PROGRAM.pte [--kernels]
//
// Reads the program into memory (stdio, no iostream), loads it at Minimal
// verification through a BufferDataLoader, loads its first method with the
// planned buffers its MethodMeta asks for, executes it once on the inputs
// the memory plan holds (zeros: each input is set to its own planned
// tensor; an input the program leaves to the application fails cleanly)
// and prints the number of outputs. Kernels
// are whatever the build links: none but the prim ops for the core-only
// size, a selective build's ember_portable_kernels for a model's.
// --kernels first prints every registered kernel, one per line (the
// selective build test reads it). On failure, prints "error: <the
// runtime's message>" and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/operator_registry.h"

namespace {

constexpr size_t kMaxPlannedBuffers = 16;
constexpr size_t kMethodPoolBytes = 4 << 20;  // values, tensors, kernel tables
constexpr size_t kTempPoolBytes = 8 << 20;    // kernels' scratch
alignas(64) uint8_t method_pool[kMethodPoolBytes];
alignas(64) uint8_t temp_pool[kTempPoolBytes];

int fail(const char* what) {
  std::fprintf(stderr, "error: %s: %s\n", what, ember::last_error_message());
  return 1;
}

// The whole file in 64-byte aligned memory (the flatbuffer's alignment);
// null when it cannot be read.
void* read_file(const char* path, size_t* size) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return nullptr;
  void* data = nullptr;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long n = std::ftell(f);
    if (n > 0 && std::fseek(f, 0, SEEK_SET) == 0) {
      data = std::aligned_alloc(64, (size_t(n) + 63) / 64 * 64);
      if (data != nullptr && std::fread(data, 1, size_t(n), f) != size_t(n)) {
        std::free(data);
        data = nullptr;
      }
      *size = size_t(n);
    }
  }
  std::fclose(f);
  return data;
}

// calloc'd planned buffers, freed when the run ends however it ends.
struct PlannedBuffers {
  ember::Span<uint8_t> spans[kMaxPlannedBuffers];
  size_t count = 0;
  ~PlannedBuffers() {
    for (size_t i = 0; i < count; ++i) std::free(spans[i].data());
  }
};

// Loads the program's first method from `bytes`, sets its planned inputs
// as they are, executes it once and says so; 1 on any error.
int run_first_method(void* bytes, size_t size) {
  ember::BufferDataLoader loader(bytes, size);
  ember::Result<ember::Program> program =
      ember::Program::load(&loader, ember::Program::Verification::Minimal);
  if (!program.ok()) return fail("program");
  ember::Result<const char*> name = program->get_method_name(0);
  if (!name.ok()) return fail("program");
  ember::Result<ember::MethodMeta> meta = program->method_meta(*name);
  if (!meta.ok()) return fail("method");

  const size_t num_buffers = meta->num_memory_planned_buffers();
  if (num_buffers > kMaxPlannedBuffers) {
    std::fprintf(stderr, "error: %zu planned buffers, at most %zu\n", num_buffers,
                 kMaxPlannedBuffers);
    return 1;
  }
  PlannedBuffers buffers;
  for (size_t i = 0; i < num_buffers; ++i) {
    ember::Result<int64_t> n = meta->memory_planned_buffer_size(i);
    if (!n.ok()) return fail("method");
    void* buffer = std::calloc(size_t(*n) + 1, 1);  // +1: never a null for 0 bytes
    if (buffer == nullptr) {
      std::fprintf(stderr, "error: out of memory\n");
      return 1;
    }
    buffers.spans[buffers.count++] =
        ember::Span<uint8_t>(static_cast<uint8_t*>(buffer), size_t(*n));
  }
  ember::HierarchicalAllocator planned({buffers.spans, num_buffers});
  ember::MemoryAllocator method_allocator(method_pool, sizeof(method_pool));
  ember::MemoryAllocator temp_allocator(temp_pool, sizeof(temp_pool));
  ember::MemoryManager memory(&method_allocator, &planned, &temp_allocator);

  ember::Result<ember::Method> method = program->load_method(*name, &memory);
  if (!method.ok()) return fail("load_method");
  for (size_t i = 0; i < method->inputs_size(); ++i) {
    const ember::EValue input = method->get_input(i);  // the planned tensor, as it is
    if (method->set_input(input, i) != ember::Error::Ok) return fail("set_input");
  }
  if (method->execute() != ember::Error::Ok) return fail("execute");
  std::printf("ok: method '%s' ran, %zu output(s)\n", ember::PrintableName(*name).c_str(),
              method->outputs_size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ember_minimal_runner PROGRAM.pte [--kernels]\n");
    return 2;
  }
  if (argc > 2 && std::strcmp(argv[2], "--kernels") == 0) {
    for (size_t i = 0; i < ember::num_registered_kernels(); ++i) {
      std::printf("%s\n", ember::registered_kernel(i).name);
    }
  }
  size_t size = 0;
  void* bytes = read_file(argv[1], &size);
  if (bytes == nullptr) {
    std::fprintf(stderr, "error: cannot read %s\n", ember::PrintableName(argv[1]).c_str());
    return 1;
  }
  const int status = run_first_method(bytes, size);
  std::free(bytes);  // after the program and method that read it are gone
  return status;
}
