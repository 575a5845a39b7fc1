// Fuzz target: the .npy reader (extension/npy), as executor_runner and the
// bundler use it on files from the command line.
#include <cstddef>
#include <cstdint>

#include "extension/npy/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::Result<ember::NpyArray> array = ember::parse_npy(data, size);
  if (array.ok()) {
    // The parser promises data.size() == numel * element size.
    if (array->numel() < 0 ||
        array->data.size() != size_t(array->numel()) * ember::element_size(array->dtype)) {
      __builtin_trap();
    }
  }
  return 0;
}
