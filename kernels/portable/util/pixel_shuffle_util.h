// pixel_shuffle / pixel_unshuffle as one strided copy (shared by both ops).
#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// upscale: pixel_shuffle with factor r; otherwise pixel_unshuffle.
void pixel_shuffle(KernelArgs& a, Tensor self, int64_t r, Tensor out,
                   bool upscale);

}  // namespace ember
