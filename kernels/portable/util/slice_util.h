// Python slice bounds along one dim, shared by slice_copy and
// slice_scatter: negative start/end count from the end, both are clamped
// to [0, size], an end before the start gives an empty slice, and the step
// must be positive.
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

struct SliceRange {
  int64_t start = 0;   // first element, in [0, size]
  int64_t length = 0;  // elements taken, every step-th from start
};

// Fails (InvalidArgument, naming the step) unless step > 0. None for start
// or end means the dim's start or end.
inline bool python_slice(KernelArgs& args, Optional<int64_t> start,
                         Optional<int64_t> end, int64_t step, int64_t size,
                         SliceRange* out) {
  if (step <= 0) {
    return args.fail(Error::InvalidArgument, "step must be positive, got %lld",
                     static_cast<long long>(step));
  }
  const auto clamp = [size](int64_t i) {
    if (i < 0) {
      i += size;
    }
    return i < 0 ? 0 : (i > size ? size : i);
  };
  const int64_t lo = start.has_value() ? clamp(start.value()) : 0;
  int64_t hi = end.has_value() ? clamp(end.value()) : size;
  hi = hi < lo ? lo : hi;
  out->start = lo;
  // ceil((hi - lo) / step) without hi - lo + step - 1, which overflows for
  // a step near INT64_MAX.
  out->length = hi == lo ? 0 : (hi - lo - 1) / step + 1;
  return true;
}

}  // namespace ember
