// KernelContext: what the runtime hands every kernel besides its arguments.
//
// A kernel reports failure with fail(error) after recording a message
// (set_error_message); it must then return without writing partial results
// it relies on. Scratch memory comes from allocate_temp(), which is released
// after the instruction. A call whose constant operand was prepared at
// load (runtime/kernel/operand_preparation.h) finds it through
// prepared_operand().
//
// Kernels registered with EMBER_REGISTER_PREPARED_KERNEL also see a mode
// (docs/custom_kernels.md, "Checking once: prepared kernels"):
//   Run       check the arguments, size the outputs, compute (every call of
//             every other kernel, and calls whose shapes may change)
//   Prepare   at method load, once per call whose tensors all have static
//             shapes: check and size only, then stop (KernelArgs::
//             prepared_stop()) before computing or writing any data
//   Prepared  every execution of a call whose Prepare stopped cleanly: the
//             tags, dtypes and shapes are those Prepare checked, so those
//             checks and the output sizing are skipped; checks on values
//             (an index in range, a data pointer bound) still run
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember {

struct PreparedOperand;

class KernelContext final {
 public:
  enum class Mode : uint8_t { Run, Prepare, Prepared };

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

  Mode mode() const { return mode_; }
  void set_mode(Mode mode) { mode_ = mode; }
  // Prepare mode: the kernel reached its compute step with every check
  // passed and its outputs sized (KernelArgs::prepared_stop()).
  bool stopped() const { return stopped_; }
  void stop() { stopped_ = true; }

 private:
  MemoryAllocator* temp_allocator_;
  const PreparedOperand* prepared_ = nullptr;
  Error failure_ = Error::Ok;
  Mode mode_ = Mode::Run;
  bool stopped_ = false;
};

}  // namespace ember
