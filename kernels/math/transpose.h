// Permuting the dims of a dense array, for any element size.
#pragma once

#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

constexpr size_t kMaxTransposeDims = 16;

// out = in with its dims permuted: out dim d is in dim perm[d]; rank <=
// kMaxTransposeDims, in and out contiguous and not overlapping. Spread
// over the shared pool; no allocation.
void transpose(size_t element_size, size_t rank, const size_t* in_dims, const size_t* perm,
               const void* in, void* out);

// dst[i * ds + j] = src[i + j * ss] for i < ni, j < nj, fp32, on the
// calling thread (the same tiled kernel as transpose()).
void transpose_2d_f32(size_t ni, size_t nj, const float* src, size_t ss, float* dst,
                      size_t ds);

}  // namespace ember::math
