// Helpers for the regression and allocation-failure tests: run hostile
// bytes through the paths an application uses, and report the first Error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "extension/npy/npy.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/flat_tensor_data_map.h"

namespace ember::testing {

inline std::string regression_dir() { return EMBER_REGRESSION_DIR; }
inline std::string models_dir() { return EMBER_TEST_MODELS_DIR; }

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::vector<uint8_t> bytes;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return bytes;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  fclose(f);
  return bytes;
}

// The Error whose error_name() is `name`; false if there is none.
inline bool error_from_name(const std::string& name, Error* out) {
  for (int code = 0; code < 0x100; ++code) {
    if (name == error_name(static_cast<Error>(code))) {
      *out = static_cast<Error>(code);
      return true;
    }
  }
  return false;
}

// Bytes copied to 64-byte aligned memory (a bundle wants 32).
class AlignedCopy {
 public:
  explicit AlignedCopy(const std::vector<uint8_t>& v)
      : mem_(static_cast<uint8_t*>(std::aligned_alloc(64, (v.size() + 63) / 64 * 64 + 64)),
             std::free),
        size_(v.size()) {
    if (!v.empty()) std::memcpy(mem_.get(), v.data(), v.size());
  }
  const uint8_t* data() const { return mem_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t, void (*)(void*)> mem_;
  size_t size_;
};

constexpr uint64_t kTestInstructionLimit = 100000;

// Loads the program at `level`, then loads, fills (ones) and executes every
// method twice (through Module). The first Error, or Ok.
inline Error run_program(const std::vector<uint8_t>& bytes, Program::Verification level) {
  AlignedCopy copy(bytes);
  clear_error_message();
  Result<std::unique_ptr<Module>> module =
      Module::load(std::make_unique<BufferDataLoader>(copy.data(), copy.size()), level);
  if (!module.ok()) return module.error();
  for (const std::string& name : (*module)->method_names()) {
    Result<Method*> method = (*module)->method(name);
    if (!method.ok()) return method.error();
    (*method)->set_instruction_limit(kTestInstructionLimit);
    Result<InputBuffers> inputs = prepare_input_tensors(**method);
    if (!inputs.ok()) return inputs.error();
    for (int run = 0; run < 2; ++run) {
      const Error err = (*method)->execute();
      if (err != Error::Ok) return err;
    }
  }
  return Error::Ok;
}

// Verifies the bundle, loads its program, and for every test case of every
// suite sets the inputs, executes and verifies the outputs.
inline Error run_bundle(const std::vector<uint8_t>& bytes) {
  AlignedCopy copy(bytes);
  clear_error_message();
  Result<BundledProgram> bundle = BundledProgram::from(copy.data(), copy.size());
  if (!bundle.ok()) return bundle.error();
  Result<std::unique_ptr<Module>> module = Module::load(
      std::make_unique<BufferDataLoader>(bundle->program_data(), bundle->program_size()));
  if (!module.ok()) return module.error();
  for (size_t s = 0; s < bundle->num_method_suites(); ++s) {
    const char* name = bundle->suite_method_name(s);
    Result<Method*> method = (*module)->method(name);
    if (!method.ok()) return method.error();
    (*method)->set_instruction_limit(kTestInstructionLimit);
    Result<size_t> cases = bundle->num_test_cases(name);
    if (!cases.ok()) return cases.error();
    for (size_t k = 0; k < *cases; ++k) {
      EMBER_RETURN_IF_ERROR(load_bundled_input(**method, *bundle, k));
      EMBER_RETURN_IF_ERROR((*method)->execute());
      EMBER_RETURN_IF_ERROR(verify_method_outputs(**method, *bundle, k, kDefaultBundledRtol,
                                                  kDefaultBundledAtol));
    }
  }
  return Error::Ok;
}

inline Error run_npy(const std::vector<uint8_t>& bytes) {
  clear_error_message();
  Result<NpyArray> array = parse_npy(bytes.data(), bytes.size());
  return array.ok() ? Error::Ok : array.error();
}

// An external data file (.ptd): read as a FlatTensorDataMap (every key's
// bytes loaded), then test/models/external/portable.pte loaded with it, its
// method loaded (EXTERNAL tensors resolved), filled with ones and executed.
inline Error run_ptd(const std::vector<uint8_t>& bytes) {
  AlignedCopy copy(bytes);
  clear_error_message();
  BufferDataLoader loader(copy.data(), copy.size());
  Result<FlatTensorDataMap> map = FlatTensorDataMap::load(&loader);
  if (!map.ok()) return map.error();
  for (size_t i = 0; i < map->num_keys(); ++i) {
    Result<FreeableBuffer> data = map->get_data(*map->get_key(i));
    if (!data.ok()) return data.error();
  }
  const std::vector<uint8_t> pte = read_file(models_dir() + "/external/portable.pte");
  AlignedCopy program_copy(pte);
  BufferDataLoader program_loader(program_copy.data(), program_copy.size());
  const NamedDataMap* maps[] = {&*map};
  Result<Program> program =
      Program::load(&program_loader, Program::Verification::InternalConsistency, {maps, 1});
  if (!program.ok()) return program.error();
  std::vector<uint8_t> pool(size_t(1) << 20);
  std::vector<uint8_t> planned(size_t(1) << 16);
  Span<uint8_t> spans[] = {{planned.data(), planned.size()}};
  MemoryAllocator method_allocator(pool.data(), pool.size());
  HierarchicalAllocator planned_memory({spans, 1});
  MemoryManager memory(&method_allocator, &planned_memory);
  Result<Method> method = program->load_method("forward", &memory);
  if (!method.ok()) return method.error();
  Result<InputBuffers> inputs = prepare_input_tensors(*method);
  if (!inputs.ok()) return inputs.error();
  return method->execute();
}

}  // namespace ember::testing
