// Internal helper for the data loaders (not a public header): the one
// overflow-safe bounds check every loader runs before touching its data.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"

namespace ember {
namespace data_loader_detail {

// Ok when [offset, offset + size) lies inside [0, data_size); otherwise
// records "<loader>: range [offset, offset + size) ..." and returns
// InvalidArgument. Never computes offset + size, so it cannot wrap.
inline Error check_range(const char* loader, const char* source,
                         size_t offset, size_t size, size_t data_size) {
  if (offset > data_size || size > data_size - offset) {
    set_error_message(
        "%s(%s): cannot load %zu bytes at offset %zu: the data has %zu bytes",
        loader, source, size, offset, data_size);
    return Error::InvalidArgument;
  }
  return Error::Ok;
}

}  // namespace data_loader_detail
}  // namespace ember
