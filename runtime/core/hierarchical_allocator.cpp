#include "runtime/core/hierarchical_allocator.h"

#include <cinttypes>

namespace ember {

Result<void*> HierarchicalAllocator::get_offset_address(size_t index,
                                                        uint64_t offset,
                                                        size_t size) const {
  if (index >= buffers_.size()) {
    set_error_message("planned buffer %zu requested, only %zu provided", index,
                      buffers_.size());
    return Error::InvalidArgument;
  }
  const Span<uint8_t> buf = buffers_[index];
  if (offset > buf.size() || size > buf.size() - offset) {
    set_error_message("planned range [%" PRIu64 ", +%zu) outside buffer %zu of "
                      "%zu bytes",
                      offset, size, index, buf.size());
    return Error::InvalidArgument;
  }
  return static_cast<void*>(buf.data() + offset);
}

}  // namespace ember
