// c10::MemoryFormat values as serialized in programs, and the check used by
// kernels that accept a `MemoryFormat? memory_format` argument.
#pragma once

#include <cstdint>

#include "kernels/portable/util/kernel_args.h"

namespace ember {

enum class MemoryFormat : int64_t {
  Contiguous = 0,
  Preserve = 1,
  ChannelsLast = 2,
  ChannelsLast3d = 3,
};

// Accepts None, Contiguous and Preserve (out's own dim order decides the
// layout); anything else fails with NotSupported.
inline bool check_memory_format(KernelArgs& args, Optional<int64_t> format) {
  if (!format.has_value() ||
      format.value() == int64_t(MemoryFormat::Contiguous) ||
      format.value() == int64_t(MemoryFormat::Preserve)) {
    return true;
  }
  return args.fail(Error::NotSupported,
                   "memory_format %lld is not supported (only contiguous or "
                   "preserve)",
                   static_cast<long long>(format.value()));
}

}  // namespace ember
