// Shared pieces of the fuzz targets: aligned copies of the input, and a
// method loaded into bounded memory.
//
// Bounds are the harness's, not the runtime's: a file may legitimately ask
// for gigabytes of planned memory, so a target that sees more than
// kMaxPlannedBytes (or an input larger than kMaxInputBytes) stops there
// without calling it a finding. Everything else a file asks for must end in
// an Error or a clean run.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"

namespace ember::fuzz {

constexpr size_t kMaxPlannedBytes = size_t(16) << 20;
constexpr size_t kMaxInputBytes = size_t(16) << 20;
constexpr size_t kMethodPoolBytes = size_t(2) << 20;
constexpr size_t kTempPoolBytes = size_t(1) << 20;
// Small enough that a looping program costs microseconds, large enough for
// every committed fixture.
constexpr uint64_t kInstructionLimit = 2000;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Bytes = std::unique_ptr<uint8_t, FreeDeleter>;

// `size` bytes of `data` copied into 64-byte aligned memory (libFuzzer's
// buffer has no particular alignment; the runtime wants 16, a bundle 32).
inline Bytes aligned_copy(const uint8_t* data, size_t size) {
  Bytes out(static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) / 64 * 64 + 64)));
  if (size > 0) std::memcpy(out.get(), data, size);
  return out;
}

// One method in memory the harness owns. Declared members are destroyed in
// reverse order: the Method goes before the memory it points into.
class BoundedMethod {
 public:
  // Error::Ok with method() set, an Error from the runtime, or
  // Error::NotSupported when the harness bound was exceeded.
  Error load(const Program& program, const char* name) {
    Result<MethodMeta> meta = program.method_meta(name);
    if (!meta.ok()) return meta.error();
    size_t total = 0;
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      Result<int64_t> size = meta->memory_planned_buffer_size(i);
      if (!size.ok()) return size.error();
      if (*size < 0 || uint64_t(*size) > kMaxPlannedBytes - total) return Error::NotSupported;
      total += size_t(*size);
      planned_.emplace_back(static_cast<uint8_t*>(std::calloc(size_t(*size) + 1, 1)));
      spans_.emplace_back(planned_.back().get(), size_t(*size));
    }
    planned_memory_ = std::make_unique<HierarchicalAllocator>(
        Span<Span<uint8_t>>(spans_.data(), spans_.size()));
    method_pool_.reset(static_cast<uint8_t*>(std::malloc(kMethodPoolBytes)));
    temp_pool_.reset(static_cast<uint8_t*>(std::malloc(kTempPoolBytes)));
    method_allocator_ = std::make_unique<MemoryAllocator>(method_pool_.get(), kMethodPoolBytes);
    temp_allocator_ = std::make_unique<MemoryAllocator>(temp_pool_.get(), kTempPoolBytes);
    memory_ = std::make_unique<MemoryManager>(method_allocator_.get(), planned_memory_.get(),
                                              temp_allocator_.get());
    Result<Method> method = program.load_method(name, memory_.get());
    if (!method.ok()) return method.error();
    method_ = std::make_unique<Method>(std::move(*method));
    method_->set_instruction_limit(kInstructionLimit);
    return Error::Ok;
  }
  Method* method() const { return method_.get(); }

  // True when every tensor input fits the harness bound (inputs without
  // planned memory are made on the heap by prepare_input_tensors).
  bool inputs_within_bound() const {
    MethodMeta meta = method_->method_meta();
    size_t total = 0;
    for (size_t i = 0; i < meta.num_inputs(); ++i) {
      Result<TensorInfo> info = meta.input_tensor_meta(i);
      if (!info.ok()) continue;
      if (info->nbytes() > kMaxInputBytes - total) return false;
      total += info->nbytes();
    }
    return true;
  }

 private:
  std::vector<Bytes> planned_;
  std::vector<Span<uint8_t>> spans_;
  std::unique_ptr<HierarchicalAllocator> planned_memory_;
  Bytes method_pool_;
  Bytes temp_pool_;
  std::unique_ptr<MemoryAllocator> method_allocator_;
  std::unique_ptr<MemoryAllocator> temp_allocator_;
  std::unique_ptr<MemoryManager> memory_;
  std::unique_ptr<Method> method_;
};

}  // namespace ember::fuzz
