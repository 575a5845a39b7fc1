// Sample: a firmware-shaped application (no heap, no Module); read it and copy it.
// A firmware-shaped application against the installed package: no Module,
// no file system inside the run, every byte of memory from fixed arrays.
// The host part only reads the file into an aligned array (a firmware
// would link the bytes in); then, through the bundled_program library:
// bytes in (ProgramView::open), the Program from the view, each test case's
// inputs copied into caller memory (bundled_case_memory_bytes), execute,
// and a report per output (max abs / rel error).
//
//   ember_device_app MODEL.bpte   -> "case K output J: passed max_abs ..." lines,
//                                    "verified N case(s)"; exit 0 when all pass
#include <cstdio>
#include <cstring>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace {

using namespace ember;

constexpr size_t kFileBytes = size_t(4) << 20;
constexpr size_t kPlannedBytes = size_t(4) << 20;
constexpr size_t kMethodBytes = size_t(1) << 20;
constexpr size_t kTempBytes = size_t(1) << 20;
constexpr size_t kCaseBytes = size_t(1) << 20;
constexpr size_t kMaxPlanned = 8;
constexpr size_t kMaxOutputs = 16;

alignas(64) uint8_t g_file[kFileBytes];
alignas(64) uint8_t g_planned[kPlannedBytes];
alignas(64) uint8_t g_method[kMethodBytes];
alignas(64) uint8_t g_temp[kTempBytes];
alignas(64) uint8_t g_case[kCaseBytes];

int fail(const char* what, Error e) {
  std::fprintf(stderr, "error: %s: %s (%s)\n", what, error_name(e), last_error_message());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ember_device_app MODEL.bpte\n");
    return 1;
  }
  FILE* f = std::fopen(argv[1], "rb");
  if (f == nullptr) return fail("opening the model", Error::AccessFailed);
  const size_t size = std::fread(g_file, 1, kFileBytes, f);
  std::fclose(f);

  Result<ProgramView> view = ProgramView::open(g_file, size);
  if (!view.ok()) return fail("opening the bytes", view.error());
  if (!view->is_bundled()) return fail("the model has no test cases", Error::InvalidArgument);
  const BundledProgram& bundle = *view->bundle();
  BufferDataLoader loader(view->program_data(), view->program_size());
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return fail("loading the program", program.error());

  size_t verified = 0;
  for (size_t s = 0; s < bundle.num_method_suites(); ++s) {
    const char* name = bundle.suite_method_name(s);
    Result<MethodMeta> meta = program->method_meta(name);
    if (!meta.ok()) return fail("method meta", meta.error());
    Span<uint8_t> spans[kMaxPlanned];
    size_t used = 0;
    const size_t num_planned = meta->num_memory_planned_buffers();
    if (num_planned > kMaxPlanned) return fail("planned buffers", Error::NotSupported);
    for (size_t i = 0; i < num_planned; ++i) {
      const size_t bytes = size_t(*meta->memory_planned_buffer_size(i));
      if (used + bytes > kPlannedBytes) return fail("planned memory", Error::MemoryAllocationFailed);
      spans[i] = Span<uint8_t>(g_planned + used, bytes);
      used += (bytes + 63) / 64 * 64;
    }
    HierarchicalAllocator planned(Span<Span<uint8_t>>(spans, num_planned));
    MemoryAllocator method_allocator(g_method, kMethodBytes);
    MemoryAllocator temp_allocator(g_temp, kTempBytes);
    MemoryManager memory(&method_allocator, &planned, &temp_allocator);
    Result<Method> method = program->load_method(name, &memory);
    if (!method.ok()) return fail("loading the method", method.error());
    if (bundled_case_memory_bytes(*method) > kCaseBytes) {
      return fail("test case memory", Error::MemoryAllocationFailed);
    }
    MemoryAllocator case_allocator(g_case, kCaseBytes);
    Result<size_t> cases = bundle.num_test_cases(name);
    if (!cases.ok()) return fail("test cases", cases.error());
    for (size_t k = 0; k < *cases; ++k) {
      case_allocator.reset();
      Error e = load_bundled_input(*method, bundle, k, &case_allocator);
      if (e != Error::Ok) return fail("setting the inputs", e);
      e = method->execute();
      if (e != Error::Ok) return fail("executing", e);
      OutputReport reports[kMaxOutputs];
      e = verify_method_outputs(*method, bundle, k, kDefaultBundledRtol, kDefaultBundledAtol,
                                reports, kMaxOutputs);
      const size_t n = method->outputs_size() < kMaxOutputs ? method->outputs_size() : kMaxOutputs;
      for (size_t j = 0; j < n; ++j) {
        std::printf("case %zu output %zu: %s max_abs %g max_rel %g\n", k, j,
                    reports[j].passed ? "passed" : "FAILED", reports[j].max_abs_error,
                    reports[j].max_rel_error);
      }
      if (e != Error::Ok) return fail("verifying", e);
      ++verified;
    }
  }
  std::printf("verified %zu case(s)\n", verified);
  return 0;
}
