#include "runtime/core/memory_allocator.h"

namespace ember {

void* MemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return nullptr;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(begin_);
  const uintptr_t current = base + used_;
  const uintptr_t aligned = (current + alignment - 1) & ~uintptr_t(alignment - 1);
  const size_t padding = aligned - current;
  if (aligned < current || padding > size_ - used_ ||
      size > size_ - used_ - padding) {
    return nullptr;
  }
  used_ += padding + size;
  if (used_ > high_water_) {
    high_water_ = used_;
  }
  // A zero-byte request still returns a distinct, valid pointer.
  return reinterpret_cast<void*>(aligned);
}

}  // namespace ember
