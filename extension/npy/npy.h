// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0;
// little-endian, C order). Used by tests, executor_runner and the bundler;
// not part of the runtime core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"

namespace ember {

struct NpyArray {
  ScalarType dtype = ScalarType::Float;
  std::vector<SizesType> shape;   // empty for a 0-d array
  std::vector<uint8_t> data;      // numel * element_size bytes, C order

  int64_t numel() const;
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data.data()); }
};

// Parses .npy bytes. InvalidArgument (with last_error_message()) for a bad
// magic, an unsupported dtype or byte order, Fortran order, a malformed
// header, or a data size that does not match the shape.
Result<NpyArray> parse_npy(const uint8_t* bytes, size_t size);
Result<NpyArray> read_npy(const std::string& path);

// Serializes `tensor` (contiguous) as .npy bytes / into a file.
std::vector<uint8_t> to_npy(ScalarType dtype, const std::vector<SizesType>& shape,
                            const void* data);
Error write_npy(const std::string& path, const Tensor& tensor);

// The numpy descr ("<f4") for a type; empty if numpy has no equivalent.
std::string npy_descr(ScalarType dtype);

}  // namespace ember
