// Fuzz target: executor_runner's --inputs parser (examples/executor_runner/
// runner_inputs.h) against the committed fixtures' methods. The first byte
// picks a fixture and the kind of item (.npy file, .bin file or a literal);
// the rest is the file's bytes or the literal text, given for every input.
// The fixtures are loaded once; the files go to a per-process temp folder.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "examples/executor_runner/runner_inputs.h"
#include "extension/module/module.h"

namespace {

const char* const kFixtures[] = {"add", "dynamic", "int_bool", "scalar_ops", "two_methods"};
constexpr size_t kNumFixtures = sizeof(kFixtures) / sizeof(kFixtures[0]);

struct Loaded {
  std::unique_ptr<ember::Module> module;
  ember::Method* method = nullptr;
};

std::vector<Loaded>& fixtures() {
  static std::vector<Loaded> loaded = [] {
    std::vector<Loaded> out;
    for (const char* name : kFixtures) {
      Loaded l;
      auto m = ember::Module::load(std::string(EMBER_TEST_MODELS_DIR) + "/" + name +
                                   "/model.pte");
      if (!m.ok()) abort();
      l.module = std::move(*m);
      auto method = l.module->method("forward");
      if (!method.ok()) abort();
      l.method = *method;
      l.method->set_instruction_limit(2000);
      out.push_back(std::move(l));
    }
    return out;
  }();
  return loaded;
}

std::string write_temp(const char* suffix, const uint8_t* data, size_t size) {
  const std::string path =
      "/tmp/ember_runner_fuzz_" + std::to_string(getpid()) + suffix;
  FILE* f = fopen(path.c_str(), "wb");
  if (f == nullptr) abort();
  if (size > 0 && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  ++data;
  --size;
  Loaded& l = fixtures()[(selector / 3) % kNumFixtures];
  std::string item;
  switch (selector % 3) {
    case 0: item = write_temp(".npy", data, size); break;
    case 1: item = write_temp(".bin", data, size); break;
    default: item.assign(reinterpret_cast<const char*>(data), size); break;
  }
  std::vector<std::string> items(l.method->inputs_size(), item);
  ember::runner::CommandLineInputs inputs;
  if (inputs.set(*l.method, items) == ember::Error::Ok) {
    (void)l.method->execute();
  }
  if (selector % 3 != 2) unlink(item.c_str());
  return 0;
}
