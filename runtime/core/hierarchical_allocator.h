// HierarchicalAllocator: the caller's planned-memory buffers.
//
// The exporter's memory planner assigns each non-constant tensor a buffer id
// and a byte offset. Buffer ids in a program are 1-based (id 0 is reserved
// by the format), so buffer `i` here (0-based) serves id `i + 1`, and must
// be at least MethodMeta::memory_planned_buffer_size(i) bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember {

class HierarchicalAllocator final {
 public:
  // `buffers` (the span's array and each buffer) must outlive this object.
  explicit HierarchicalAllocator(Span<Span<uint8_t>> buffers)
      : buffers_(buffers) {}

  size_t num_buffers() const { return buffers_.size(); }
  Span<uint8_t> buffer(size_t index) const { return buffers_[index]; }

  // The address of [offset, offset + size) in buffer `index` (0-based), or
  // an error with a message if the range is outside the buffer.
  Result<void*> get_offset_address(size_t index, uint64_t offset,
                                   size_t size) const;

 private:
  Span<Span<uint8_t>> buffers_;
};

}  // namespace ember
