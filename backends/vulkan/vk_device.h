// The Vulkan device Ember computes on: the loader opened at run time
// (libvulkan.so.1 through dlopen, so a machine without Vulkan loads programs
// that do not use it and gets a clear error for those that do), one
// instance, the first compute-capable physical device (a discrete GPU
// before an integrated one before a CPU driver such as Mesa's lavapipe),
// one logical device and one compute queue, shared by every delegate in the
// process and created on first use.
//
// Thread safety: device() may be called from any thread; submissions to the
// shared queue go through submit(), which serializes them.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace ember::vulkan {

// The entry points Ember calls, loaded from the driver.
struct Functions {
#define EMBER_VK_FN(name) PFN_##name name = nullptr;
#include "backends/vulkan/vk_functions.inc"
#undef EMBER_VK_FN
};

struct Device {
  Functions vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  // Timestamp period in ns per tick, 0 when the queue cannot time.
  double timestamp_ns = 0;
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = {};

  // Submits one command buffer and signals `fence`; serialized across
  // threads.
  Error submit(VkCommandBuffer cmd, VkFence fence) const;
  // A memory type index with all of `required` among `type_bits`, or -1.
  int32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;
};

// The process's device, created on first call. NotSupported with a message
// ("VulkanBackend: ...") when there is no loader, no driver, no device with
// a compute queue, or the device is older than Vulkan 1.1.
Result<const Device*> device();

// Whether device() would succeed, without recording an error.
bool device_available();

}  // namespace ember::vulkan
