// c10::MemoryFormat values as serialized in programs, and the check used by
// kernels that accept a `MemoryFormat? memory_format` argument.
#pragma once

#include <cstdint>

#include "runtime/kernel/kernel_args.h"

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

// For the dim_order_ops kernels: the `dim_order` argument must equal out's
// dim order; None means contiguous.
inline bool check_out_dim_order(KernelArgs& args, Optional<Span<int64_t>> dim_order,
                                const Tensor& out) {
  if (!dim_order.has_value()) {
    return out.is_contiguous() ||
           args.fail(Error::InvalidArgument,
                     "dim_order is None (contiguous) but out is not contiguous");
  }
  const Span<int64_t> order = dim_order.value();
  bool same = order.size() == out.dim();
  for (size_t i = 0; same && i < order.size(); ++i) {
    same = order[i] == int64_t(out.dim_order()[i]);
  }
  return same || args.fail(Error::InvalidArgument,
                           "dim_order argument (%zu entries) does not match out's "
                           "dim order",
                           order.size());
}

}  // namespace ember
