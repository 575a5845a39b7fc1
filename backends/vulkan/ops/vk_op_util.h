// Small helpers the operator builders share.
#pragma once

#include <cstdint>

#include "backends/vulkan/vk_builder.h"

namespace ember::vulkan {

// Strides (elements) to read `in` at each index of `out`, `in` aligned to
// `out`'s trailing dims and broadcast (stride 0) where its size is 1.
// InvalidProgram when the shapes do not broadcast.
Error broadcast_strides(const Builder& b, const TensorDesc& in, const TensorDesc& out,
                        uint32_t* strides);

// A dim argument in [-rank, rank) made non-negative; InvalidProgram outside.
Error normalize_dim(const Builder& b, int64_t dim, uint32_t rank, uint32_t* out);

}  // namespace ember::vulkan
