// 2-D max pooling with indices on raw fp32 NCHW planes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/isa.h"

namespace ember::math {

struct MaxPool2dShape {
  size_t planes = 0, in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  size_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  size_t pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
};

// out = the maximum of each window (padding excluded), indices = its
// position in the plane (row * in_w + column), PyTorch's rule: scanning
// the window row by row, an element replaces the current best when it is
// greater or NaN, so the first maximum wins and the last NaN wins. A
// window with no element inside the plane cannot occur (the caller checked
// the geometry). With stride 1 or 2 along the row, outputs go by vectors
// along each row (border rows included; border columns too with dilation
// 1), each lane running that rule over its taps; outputs whose vector
// would read outside the plane, and the rest, by a scalar loop. Spread
// over the pool by planes.
void max_pool2d_f32(const MaxPool2dShape& s, const float* in, float* out, int64_t* indices,
                    Isa isa = best_isa());

}  // namespace ember::math
