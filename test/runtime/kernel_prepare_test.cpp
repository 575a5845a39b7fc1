// Kernel prepare (runtime/executor/method_kernel_prepare.cpp) changes
// nothing a program can see. Every committed program is loaded twice, with
// prepare off and on, over planned memory filled with the same pattern:
//   - prepare writes no data at load (the planned bytes are equal after
//     both loads), and every prepared kernel's Prepare call either stopped
//     or failed (none ran through to computing);
//   - every test case of a .bpte gives the same bits, or the same error
//     and message, both ways (a call whose Prepare failed reports its error
//     when it runs, as without prepare).
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
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// One method loaded with prepare on or off, with its own memory.
struct Loaded {
  std::vector<std::vector<uint8_t>> planned;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned_memory;
  std::vector<uint8_t> method_pool, temp_pool, case_pool;
  std::unique_ptr<MemoryAllocator> method_allocator, temp_allocator;
  std::unique_ptr<MemoryManager> memory;
  std::unique_ptr<Method> method;
  Error error = Error::Ok;
  std::string message;
};

void load(const Program& program, const char* name, bool prepare, Loaded* l) {
  const MethodMeta meta = *program.method_meta(name);
  for (size_t b = 0; b < meta.num_memory_planned_buffers(); ++b) {
    l->planned.emplace_back(size_t(*meta.memory_planned_buffer_size(b)), uint8_t(0xA5));
  }
  for (auto& p : l->planned) l->spans.emplace_back(p.data(), p.size());
  l->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(l->spans.data(), l->spans.size()));
  l->method_pool.resize(meta.method_allocator_bytes() + 64);
  l->temp_pool.resize(8 << 20);
  l->method_allocator =
      std::make_unique<MemoryAllocator>(l->method_pool.data(), l->method_pool.size());
  l->temp_allocator = std::make_unique<MemoryAllocator>(l->temp_pool.data(), l->temp_pool.size());
  l->memory = std::make_unique<MemoryManager>(l->method_allocator.get(), l->planned_memory.get(),
                                              l->temp_allocator.get());
  set_kernel_prepare_enabled(prepare);
  Result<Method> m = program.load_method(name, l->memory.get());
  set_kernel_prepare_enabled(true);
  l->error = m.error();
  if (m.ok()) l->method = std::make_unique<Method>(std::move(*m));
}

// Runs test case k; returns the error, with the message in *message.
Error run_case(Loaded* l, const BundledProgram& bundle, size_t k, std::string* message) {
  l->case_pool.assign(bundled_case_memory_bytes(*l->method) + 64, 0);
  MemoryAllocator case_allocator(l->case_pool.data(), l->case_pool.size());
  clear_error_message();
  Error err = load_bundled_input(*l->method, bundle, k, &case_allocator);
  if (err == Error::Ok) err = l->method->execute();
  *message = last_error_message();
  return err;
}

// The outputs' bytes, tensor by tensor (scalars by value).
std::string output_bytes(const Method& method) {
  std::string bytes;
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& v = method.get_output(i);
    if (v.is_tensor()) {
      const Tensor t = v.to_tensor();
      if (t.const_data_ptr() != nullptr) {
        bytes.append(static_cast<const char*>(t.const_data_ptr()), t.nbytes());
      }
    } else if (v.is_int()) {
      bytes += std::to_string(v.to_int());
    } else if (v.is_double()) {
      bytes += std::to_string(v.to_double());
    } else if (v.is_bool()) {
      bytes += v.to_bool() ? "T" : "F";
    }
    bytes += '|';
  }
  return bytes;
}

TEST(KernelPrepare, EveryFixtureSameBitsWithAndWithoutPrepare) {
  size_t methods = 0, prepared_calls = 0, failed_prepares = 0, cases = 0, error_cases = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(EMBER_TEST_MODELS_DIR)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".pte" && ext != ".bpte") continue;
    const std::vector<uint8_t> bytes = read_bytes(entry.path());
    Result<ProgramView> view = ProgramView::open(bytes.data(), bytes.size());
    if (!view.ok()) continue;
    BufferDataLoader loader(view->program_data(), view->program_size());
    Result<Program> program = Program::load(&loader);
    if (!program.ok()) continue;  // corrupt on purpose
    for (size_t m = 0; m < program->num_methods(); ++m) {
      const char* name = *program->get_method_name(m);
      Loaded off, on;
      load(*program, name, false, &off);
      load(*program, name, true, &on);
      ASSERT_EQ(off.error, on.error) << entry.path() << " '" << name << "'";
      if (off.error != Error::Ok) continue;
      ++methods;
      const Method::KernelPrepareStats& stats = on.method->kernel_prepare_stats();
      EXPECT_EQ(stats.unfinished, 0u)
          << entry.path() << " '" << name << "': a prepared kernel ran through its Prepare call";
      EXPECT_EQ(off.method->kernel_prepare_stats().prepared, 0u);
      prepared_calls += stats.prepared;
      failed_prepares += stats.failed;
      ASSERT_EQ(off.planned, on.planned)
          << entry.path() << " '" << name << "': prepare wrote planned memory at load";
      const BundledProgram* bundle = view->bundle();
      Result<size_t> n = bundle != nullptr ? bundle->num_test_cases(name) : Result<size_t>(0);
      for (size_t k = 0; n.ok() && k < *n; ++k) {
        std::string message_off, message_on;
        const Error err_off = run_case(&off, *bundle, k, &message_off);
        const Error err_on = run_case(&on, *bundle, k, &message_on);
        ASSERT_EQ(err_off, err_on) << entry.path() << " case " << k << ": " << message_on;
        ++cases;
        if (err_off != Error::Ok) {
          EXPECT_EQ(message_off, message_on) << entry.path() << " case " << k;
          ++error_cases;
          continue;
        }
        EXPECT_EQ(output_bytes(*off.method), output_bytes(*on.method))
            << entry.path() << " case " << k;
      }
    }
  }
  // The committed fixtures: hundreds of methods, the elementwise operator
  // suite among them, so many calls prepare.
  EXPECT_GT(methods, 700u);
  EXPECT_GT(prepared_calls, 500u);
  EXPECT_GT(cases, 900u);
  std::printf("kernel prepare: %zu methods, %zu calls prepared, %zu prepares failed, %zu test "
              "cases (%zu end in an error) equal with and without prepare\n",
              methods, prepared_calls, failed_prepares, cases, error_cases);
}

}  // namespace
}  // namespace ember
