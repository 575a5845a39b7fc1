// Fuzz target: a .pte from untrusted bytes. Loads the program at both
// verification levels; at Minimal (where methods are checked on load) it
// then loads every method into bounded memory, fills the inputs with ones
// and executes with a small instruction budget. Any crash, sanitizer report
// or leak is a finding; every Error is an expected outcome.
#include <cstddef>
#include <cstdint>

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/runner_util/inputs.h"
#include "fuzz/fuzz_util.h"
#include "runtime/executor/program.h"

namespace {

void run_methods(const ember::Program& program) {
  for (size_t i = 0; i < program.num_methods(); ++i) {
    ember::Result<const char*> name = program.get_method_name(i);
    if (!name.ok()) continue;
    ember::fuzz::BoundedMethod bounded;
    if (bounded.load(program, *name) != ember::Error::Ok) continue;
    if (!bounded.inputs_within_bound()) continue;
    ember::Method& method = *bounded.method();
    ember::Result<ember::InputBuffers> inputs = ember::prepare_input_tensors(method);
    if (!inputs.ok()) continue;
    // Twice: the second run starts from the first one's outputs and state.
    if (method.execute() != ember::Error::Ok) continue;
    (void)method.execute();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(data, size);
  for (auto level : {ember::Program::Verification::InternalConsistency,
                     ember::Program::Verification::Minimal}) {
    ember::BufferDataLoader loader(bytes.get(), size);
    ember::Result<ember::Program> program = ember::Program::load(&loader, level);
    if (!program.ok()) continue;
    if (level == ember::Program::Verification::Minimal) run_methods(*program);
  }
  return 0;
}
