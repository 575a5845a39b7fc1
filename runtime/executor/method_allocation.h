// How Method::load takes memory from the method allocator, in one place, so
// that the size MethodMeta states before loading and what load() takes
// are computed by the same rule (internal: not installed).
//
// Every structure is one allocation of at least one element, rounded up
// to kMethodAllocationAlignment and aligned to it. From a base aligned to
// that, the bytes taken are the sum of the rounded sizes, whatever the
// order: exactly what MethodMeta::method_allocator_bytes() adds up.
#pragma once

#include <cstddef>

#include "runtime/core/error_message.h"
#include "runtime/core/memory_allocator.h"

namespace ember {

constexpr size_t kMethodAllocationAlignment = MemoryAllocator::kDefaultAlignment;

// Bytes one allocation of `n` T takes; SIZE_MAX when that overflows.
template <typename T>
constexpr size_t method_allocation_bytes(size_t n) {
  const size_t count = n == 0 ? 1 : n;
  if (count > (SIZE_MAX - kMethodAllocationAlignment) / sizeof(T)) return SIZE_MAX;
  return (count * sizeof(T) + kMethodAllocationAlignment - 1) &
         ~(kMethodAllocationAlignment - 1);
}

// Saturating sum, for the totals.
inline size_t add_bytes(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

// Takes `n` T from the method allocator by the rule above, or records which
// structure of which method did not fit (naming the pool) and returns null.
template <typename T>
T* allocate_method_array(MemoryAllocator* allocator, size_t n, const char* method,
                         const char* what) {
  const size_t bytes = method_allocation_bytes<T>(n);
  void* p = bytes == SIZE_MAX ? nullptr : allocator->allocate(bytes, kMethodAllocationAlignment);
  if (p == nullptr) {
    set_error_message("method '%s': method allocator exhausted allocating %s "
                      "(%zu x %zu bytes; %zu of %zu bytes in use)",
                      method, what, n, sizeof(T), allocator->used(), allocator->size());
  }
  return static_cast<T*>(p);
}

}  // namespace ember
