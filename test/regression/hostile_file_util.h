// Plumbing shared by the tools that write the hand-made hostile files of
// the regression corpus (make_hostile.cpp, make_hostile_ptd.cpp): read a
// file, write one into the output folder, find a flatbuffer field's bytes
// and patch them in place. Tools, not library code: a failure prints what
// went wrong and exits.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace ember::hostile {

using Bytes = std::vector<uint8_t>;

inline Bytes read(const std::string& path) {
  Bytes bytes;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) {
    fprintf(stderr, "cannot open %s\n", path.c_str());
    exit(1);
  }
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  fclose(f);
  return bytes;
}

// Writes `bytes` as `out_dir`/`name` and prints the name and size.
inline void write(const std::string& out_dir, const std::string& name, const Bytes& bytes) {
  const std::string path = out_dir + "/" + name;
  FILE* f = fopen(path.c_str(), "wb");
  if (f == nullptr ||
      (!bytes.empty() && fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())) {
    fprintf(stderr, "cannot write %s\n", path.c_str());
    exit(1);
  }
  fclose(f);
  printf("%s (%zu bytes)\n", name.c_str(), bytes.size());
}

// The address of field `f` of a flatbuffer table (null when absent).
template <typename T>
const uint8_t* field(const T* table, flatbuffers::voffset_t f) {
  return reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(f);
}

// Overwrites the field at `address` (inside `bytes`) with `value`.
template <typename T>
void patch(Bytes& bytes, const void* address, T value) {
  if (address == nullptr) {
    fprintf(stderr, "field not present\n");
    exit(1);
  }
  std::memcpy(bytes.data() + (static_cast<const uint8_t*>(address) - bytes.data()), &value,
              sizeof(T));
}

}  // namespace ember::hostile
