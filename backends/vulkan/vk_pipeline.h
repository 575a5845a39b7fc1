// Compute pipelines, one per (shader, number of bound buffers), made on
// first use and kept for the process: every delegate that runs the same
// shader shares one. Every binding is a storage buffer and every pipeline
// takes kMaxPush bytes of push constants.
//
// Thread safety: pipeline() may be called from any thread.
#pragma once

#include "backends/vulkan/vk_device.h"
#include "runtime/core/result.h"

namespace ember::vulkan {

struct Pipeline {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t bindings = 0;
};

// NotFound when no shader has that name (a builder bug); Internal when the
// driver refuses to build it.
Result<const Pipeline*> pipeline(const Device& device, const char* shader, uint32_t bindings);

}  // namespace ember::vulkan
