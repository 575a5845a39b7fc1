// KernelContext: what the runtime hands every kernel besides its arguments.
//
// A kernel reports failure with fail(error) after recording a message
// (set_error_message); it must then return without writing partial results
// it relies on. Scratch memory comes from allocate_temp(), which is released
// after the instruction. A call whose constant operand was prepared at
// load (runtime/kernel/operand_preparation.h) finds it through
// prepared_operand().
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember {

struct PreparedOperand;

class KernelContext final {
 public:
  explicit KernelContext(MemoryAllocator* temp_allocator = nullptr)
      : temp_allocator_(temp_allocator) {}

  void fail(Error error) { failure_ = error; }
  Error failure() const { return failure_; }
  void reset_failure() { failure_ = Error::Ok; }

  // Scratch memory valid until the instruction ends; null if there is no
  // temp allocator or it is exhausted (a message is recorded).
  void* allocate_temp(size_t size,
                      size_t alignment = MemoryAllocator::kDefaultAlignment);

  // This call's prepared operand, or null. A kernel uses it only when its
  // `preparation` is one the kernel registered.
  const PreparedOperand* prepared_operand() const { return prepared_; }
  void set_prepared_operand(const PreparedOperand* prepared) { prepared_ = prepared; }

 private:
  MemoryAllocator* temp_allocator_;
  const PreparedOperand* prepared_ = nullptr;
  Error failure_ = Error::Ok;
};

}  // namespace ember
