// NamedDataMap: read access to data stored by key, the interface Program
// and the backends share (a program's named data, external .ptd files).
#pragma once

#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {

// Element type, sizes and memory order of a tensor a NamedDataMap stores.
// The spans point into the map's own data and live as long as the map.
struct TensorLayoutView {
  ScalarType dtype;
  Span<const int32_t> sizes;
  Span<const uint8_t> dim_order;
};

// Read access to data stored by key: the program's own named data
// (Program.named_data), and external data files (.ptd, see
// runtime/executor/flat_tensor_data_map.h) that hold EXTERNAL tensors of a
// program and the weights of delegates exported with external constants.
class NamedDataMap {
 public:
  virtual ~NamedDataMap() = default;
  // The bytes stored under `key`, or NotFound (with a message naming the
  // key). The buffer may point into the map's data loader: it must not
  // outlive the loader.
  virtual Result<FreeableBuffer> get_data(const char* key) const = 0;
  // The tensor layout stored with `key`; NotFound when the key is absent or
  // its bytes carry no layout.
  virtual Result<TensorLayoutView> get_tensor_layout(const char* key) const {
    (void)key;
    return Error::NotFound;
  }
};

}  // namespace ember
