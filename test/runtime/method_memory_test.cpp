// MethodMeta::method_allocator_bytes() is exact: every committed program
// loads every method with a method allocator of exactly that many bytes,
// and fails cleanly, naming the method allocator, with one byte less.
// (Methods whose delegates take init() memory declare a bound, not an
// exact figure: only the first check applies to them.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace ember {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<uint8_t, FreeDeleter>;

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Loads `method` with a method allocator of `bytes` (calloc: aligned to
// max_align_t, as the figure assumes).
Error load_with(const Program& program, const char* method, size_t bytes) {
  Result<MethodMeta> meta = program.method_meta(method);
  if (!meta.ok()) return meta.error();
  std::vector<Buffer> planned;
  std::vector<Span<uint8_t>> spans;
  for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
    const size_t size = size_t(*meta->memory_planned_buffer_size(b));
    planned.emplace_back(static_cast<uint8_t*>(std::calloc(size + 1, 1)));
    spans.emplace_back(planned.back().get(), size);
  }
  HierarchicalAllocator planned_memory({spans.data(), spans.size()});
  Buffer pool(static_cast<uint8_t*>(std::calloc(bytes + 1, 1)));
  MemoryAllocator method_allocator(pool.get(), bytes);
  Buffer temp(static_cast<uint8_t*>(std::calloc(1 << 20, 1)));
  MemoryAllocator temp_allocator(temp.get(), 1 << 20);
  MemoryManager memory(&method_allocator, &planned_memory, &temp_allocator);
  Result<Method> loaded = program.load_method(method, &memory);
  return loaded.ok() ? Error::Ok : loaded.error();
}

bool delegates_take_init_memory(const MethodMeta& meta) {
  for (size_t i = 0; i < meta.num_backends(); ++i) {
    const BackendInterface* backend = find_backend(*meta.get_backend_name(i));
    if (backend != nullptr && backend->init_allocator_bytes() > 0) return true;
  }
  return false;
}

TEST(MethodMemory, EveryFixtureLoadsWithExactlyTheStatedBytesAndNotOneLess) {
  size_t exact = 0, bounded = 0, skipped = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(EMBER_TEST_MODELS_DIR)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".pte" && ext != ".bpte") continue;
    const std::vector<uint8_t> bytes = read_bytes(entry.path());
    Result<ProgramView> view = ProgramView::open(bytes.data(), bytes.size());
    ASSERT_TRUE(view.ok()) << entry.path();
    BufferDataLoader loader(view->program_data(), view->program_size());
    Result<Program> program = Program::load(&loader);
    if (!program.ok()) {  // corrupt-on-purpose fixtures
      ++skipped;
      continue;
    }
    for (size_t m = 0; m < program->num_methods(); ++m) {
      const char* name = *program->get_method_name(m);
      Result<MethodMeta> meta = program->method_meta(name);
      ASSERT_TRUE(meta.ok());
      const size_t need = meta->method_allocator_bytes();
      const Error at_size = load_with(*program, name, need);
      if (at_size != Error::Ok && at_size != Error::MemoryAllocationFailed) {
        // Not a memory question (an external .ptd, an unavailable backend,
        // a fixture that must not load): nothing to measure.
        ++skipped;
        continue;
      }
      ASSERT_EQ(at_size, Error::Ok) << entry.path() << " '" << name << "' with " << need
                                    << " bytes: " << last_error_message();
      if (delegates_take_init_memory(*meta)) {
        ++bounded;
        continue;
      }
      ASSERT_GT(need, 0u);
      const Error short_one = load_with(*program, name, need - 1);
      ASSERT_EQ(short_one, Error::MemoryAllocationFailed) << entry.path() << " '" << name << "'";
      EXPECT_NE(std::strstr(last_error_message(), "method allocator"), nullptr)
          << last_error_message();
      ++exact;
    }
  }
  // The committed fixtures: hundreds of methods, a few with demo delegates.
  EXPECT_GT(exact, 700u);
  std::printf("method memory: %zu methods exact, %zu bounded (delegates), %zu skipped\n", exact,
              bounded, skipped);
}

}  // namespace
}  // namespace ember
