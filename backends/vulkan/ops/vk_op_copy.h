// The strided copy every data-movement operator is made of
// (shaders/copy.comp): for each index over `sizes`, out[out_base + coord .
// out_strides] = in[in_base + coord . in_strides].
#pragma once

#include <cstdint>

#include "backends/vulkan/vk_builder.h"

namespace ember::vulkan {

struct CopyPush {
  uint32_t total;
  uint32_t rank;
  uint32_t in_base;
  uint32_t out_base;
  uint32_t sizes[kMaxRank];
  uint32_t in_strides[kMaxRank];
  uint32_t out_strides[kMaxRank];
};
static_assert(sizeof(CopyPush) <= kMaxPush, "push constants");

// A copy plan over the contiguous shape of `out` (in and out both read and
// written contiguously): fills sizes and both strides.
CopyPush contiguous_copy(const TensorDesc& out);

// Adds the dispatch; `once` runs it at init only.
Error add_copy(Builder& b, int32_t in_id, int32_t out_id, const CopyPush& p, bool once = false);

}  // namespace ember::vulkan
