// Fuzz target: a .bpte from untrusted bytes. Verifies the bundle, loads its
// embedded program, and for every suite loads the method, sets the inputs
// of each test case (in place, and copied through an allocator), executes
// with a small instruction budget and compares the outputs.
#include <cstddef>
#include <cstdint>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "fuzz/fuzz_util.h"
#include "runtime/executor/program.h"

namespace {

constexpr size_t kMaxTestCases = 4;
constexpr size_t kCopyPoolBytes = size_t(1) << 20;

void run_suite(const ember::Program& program, const ember::BundledProgram& bundle,
               const char* method_name) {
  ember::fuzz::BoundedMethod bounded;
  if (bounded.load(program, method_name) != ember::Error::Ok) return;
  ember::Method& method = *bounded.method();
  ember::Result<size_t> cases = bundle.num_test_cases(method_name);
  if (!cases.ok()) return;
  static uint8_t copy_pool[kCopyPoolBytes];
  // One past the last case too: the index check must hold.
  for (size_t k = 0; k <= *cases && k < kMaxTestCases; ++k) {
    ember::MemoryAllocator copies(copy_pool, sizeof(copy_pool));
    for (ember::MemoryAllocator* allocator : {static_cast<ember::MemoryAllocator*>(nullptr),
                                              &copies}) {
      if (ember::load_bundled_input(method, bundle, k, allocator) != ember::Error::Ok) {
        continue;
      }
      if (method.execute() != ember::Error::Ok) continue;
      ember::OutputReport reports[4];
      (void)ember::verify_method_outputs(method, bundle, k, ember::kDefaultBundledRtol,
                                         ember::kDefaultBundledAtol, reports, 4);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(data, size);
  ember::Result<ember::BundledProgram> bundle = ember::BundledProgram::from(bytes.get(), size);
  if (!bundle.ok()) return 0;
  ember::BufferDataLoader loader(bundle->program_data(), bundle->program_size());
  ember::Result<ember::Program> program = ember::Program::load(&loader);
  if (!program.ok()) return 0;
  for (size_t s = 0; s < bundle->num_method_suites(); ++s) {
    run_suite(*program, *bundle, bundle->suite_method_name(s));
  }
  return 0;
}
