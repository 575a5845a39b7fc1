// executor_runner: loads a .pte, fills every input with ones (upstream's
// default), executes a method and prints its outputs. Exits non-zero with
// the error's message when anything fails.
//
// Command line parsing uses gflags (Debian's libgflags-dev): it is what the
// upstream runner uses, so the flag names and syntax carry over.
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"

DEFINE_string(model_path, "model.pte", "Program file (.pte) to run.");
DEFINE_string(method_name, "forward", "Method to execute.");
DEFINE_int32(num_executions, 1, "Times to execute the method.");
DEFINE_string(loader, "mmap", "Data loader: mmap, file or buffer.");
DEFINE_bool(full_verification, false,
            "Verify the whole program at load (InternalConsistency).");

namespace {

int fail(const char* what, ember::Error error) {
  const char* message = ember::last_error_message();
  fprintf(stderr, "error: %s: %s%s%s\n", what, ember::error_name(error),
          message[0] ? ": " : "", message);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("executor_runner --model_path=model.pte [--method_name=forward]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  using namespace ember;

  Module::LoadMode mode = Module::LoadMode::Mmap;
  if (FLAGS_loader == "file") {
    mode = Module::LoadMode::File;
  } else if (FLAGS_loader == "buffer") {
    mode = Module::LoadMode::Buffer;
  } else if (FLAGS_loader != "mmap") {
    fprintf(stderr, "error: --loader must be mmap, file or buffer\n");
    return 2;
  }
  const auto verification = FLAGS_full_verification
                                ? Program::Verification::InternalConsistency
                                : Program::Verification::Minimal;
  const auto load_start = std::chrono::steady_clock::now();
  Result<std::unique_ptr<Module>> module = Module::load(FLAGS_model_path, mode, verification);
  if (!module.ok()) {
    return fail(("loading " + FLAGS_model_path).c_str(), module.error());
  }
  Result<Method*> method = (*module)->method(FLAGS_method_name);
  if (!method.ok()) {
    return fail(("loading method '" + FLAGS_method_name + "'").c_str(), method.error());
  }
  const double load_ms = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - load_start)
                             .count();
  printf("Loaded %s, method '%s' in %.3f ms\n", FLAGS_model_path.c_str(),
         FLAGS_method_name.c_str(), load_ms);

  Result<InputBuffers> inputs = prepare_input_tensors(**method);
  if (!inputs.ok()) {
    return fail("preparing inputs", inputs.error());
  }
  for (int i = 0; i < FLAGS_num_executions; ++i) {
    const Error err = (*method)->execute();
    if (err != Error::Ok) {
      return fail("execute", err);
    }
  }
  printf("Executed '%s' %d time(s)\n", FLAGS_method_name.c_str(), FLAGS_num_executions);
  print_outputs(**method, stdout);
  return 0;
}
