// MemoryAllocator: a bump allocator over a buffer the caller owns.
//
// Nothing is freed one by one; reset() releases everything at once (the
// temp allocator is reset after every instruction). allocate() returns null
// when the buffer is exhausted; the runtime turns that into
// Error::MemoryAllocationFailed with a message naming what it was
// allocating. `high_water_mark()` reports the most bytes ever in use, so an
// application can size its buffers from a real run.
//
// allocate() is virtual so tests can inject failures (fail the Nth call).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

class MemoryAllocator {
 public:
  static constexpr size_t kDefaultAlignment = alignof(std::max_align_t);

  // `base` must stay valid for the allocator's life; may be null if `size`
  // is zero.
  MemoryAllocator(void* base, size_t size)
      : begin_(static_cast<uint8_t*>(base)), size_(size) {}
  virtual ~MemoryAllocator() = default;

  // Returns `size` bytes aligned to `alignment` (a power of two), or null.
  virtual void* allocate(size_t size, size_t alignment = kDefaultAlignment);

  // Typed helper: room for `count` T, uninitialized; null on failure or
  // overflow.
  template <typename T>
  T* allocate_array(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) {
      return nullptr;
    }
    return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
  }

  virtual void reset() { used_ = 0; }

  size_t size() const { return size_; }
  size_t used() const { return used_; }
  size_t high_water_mark() const { return high_water_; }

 private:
  uint8_t* begin_;
  size_t size_;
  size_t used_ = 0;
  size_t high_water_ = 0;
};

}  // namespace ember
