// pixel_shuffle / pixel_unshuffle as one strided copy (shared by both ops).
#pragma once

#include <cstdint>

#include "kernels/portable/util/kernel_args.h"
#include "runtime/core/tensor.h"

namespace ember {

// upscale: pixel_shuffle with factor r; otherwise pixel_unshuffle.
void pixel_shuffle(KernelArgs& a, Tensor self, int64_t r, Tensor out,
                   bool upscale);

}  // namespace ember
