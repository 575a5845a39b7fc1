// Fuzz target: an external data file (.ptd) from untrusted bytes.
// FlatTensorDataMap::load must end in an Error or a map whose every key,
// buffer and layout can be read. A map that loads is then handed to the
// committed external-weights programs (test/models/external): each is
// loaded with it and its method loaded into bounded memory, which resolves
// every EXTERNAL tensor through the map (key lookup, size and layout checks,
// alignment). The target links no kernels and no delegate (a cheap build,
// fast runs), so a method load stops after the values, at the missing
// operators; running programs with external weights is left to the tests
// and to program_fuzzer. Any crash, sanitizer report or leak is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "fuzz/fuzz_util.h"
#include "runtime/executor/flat_tensor_data_map.h"
#include "runtime/executor/program.h"

namespace {

std::vector<uint8_t> read_whole(const std::string& path) {
  std::vector<uint8_t> out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  uint8_t buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}

// The programs a fuzzed map is tried with, read once.
struct Programs {
  std::vector<ember::fuzz::Bytes> bytes;
  std::vector<size_t> sizes;
  Programs() {
    for (const char* name : {"portable.pte", "xnnpack.pte"}) {
      std::vector<uint8_t> file =
          read_whole(std::string(EMBER_TEST_MODELS_DIR) + "/external/" + name);
      if (file.empty()) continue;
      bytes.push_back(ember::fuzz::aligned_copy(file.data(), file.size()));
      sizes.push_back(file.size());
    }
  }
};

// Reads every byte of `buffer` so that ASan sees any out-of-range pointer.
uint8_t touch(const void* data, size_t size) {
  const volatile uint8_t* p = static_cast<const volatile uint8_t*>(data);
  uint8_t x = 0;
  for (size_t i = 0; i < size; ++i) x ^= p[i];
  return x;
}

void read_every_key(const ember::FlatTensorDataMap& map) {
  volatile uint8_t sink = 0;
  for (size_t i = 0; i < map.num_keys(); ++i) {
    ember::Result<const char*> key = map.get_key(i);
    if (!key.ok()) __builtin_trap();  // every index below num_keys() is valid
    ember::Result<ember::FreeableBuffer> data = map.get_data(*key);
    if (data.ok()) sink = sink ^ touch(data->data(), data->size());
    ember::Result<ember::TensorLayoutView> layout = map.get_tensor_layout(*key);
    if (layout.ok()) {
      sink = sink ^ touch(layout->sizes.data(), layout->sizes.size() * sizeof(int32_t));
      sink = sink ^ touch(layout->dim_order.data(), layout->dim_order.size());
    }
  }
  if (map.get_data("no such key \x01").ok()) __builtin_trap();
  (void)sink;
}

void run_program(const uint8_t* bytes, size_t size, const ember::NamedDataMap* map) {
  ember::BufferDataLoader loader(bytes, size);
  const ember::NamedDataMap* maps[] = {map};
  ember::Result<ember::Program> program =
      ember::Program::load(&loader, ember::Program::Verification::Minimal, {maps, 1});
  if (!program.ok()) return;
  ember::fuzz::BoundedMethod bounded;
  (void)bounded.load(*program, "forward");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Programs programs;
  ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(data, size);
  ember::BufferDataLoader loader(bytes.get(), size);
  ember::Result<ember::FlatTensorDataMap> map = ember::FlatTensorDataMap::load(&loader);
  if (!map.ok()) return 0;
  read_every_key(*map);
  for (size_t i = 0; i < programs.bytes.size(); ++i) {
    run_program(programs.bytes[i].get(), programs.sizes[i], &*map);
  }
  return 0;
}
