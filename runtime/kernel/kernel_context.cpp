#include "runtime/kernel/kernel_context.h"

namespace ember {

void* KernelContext::allocate_temp(size_t size, size_t alignment) {
  if (temp_allocator_ == nullptr) {
    set_error_message("kernel needs %zu bytes of temp memory but the method "
                      "has no temp allocator",
                      size);
    return nullptr;
  }
  void* p = temp_allocator_->allocate(size, alignment);
  if (p == nullptr) {
    set_error_message("temp allocator exhausted: %zu bytes requested, %zu of "
                      "%zu in use",
                      size, temp_allocator_->used(), temp_allocator_->size());
  }
  return p;
}

}  // namespace ember
