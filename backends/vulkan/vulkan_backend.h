// Ember's runtime for upstream's Vulkan delegate (backend id
// "VulkanBackend"): programs lowered with VulkanPartitioner run on any
// Vulkan 1.1 device, from a phone GPU to Mesa's lavapipe on a CPU.
//
// Linking the ember_vulkan_backend object library registers the backend.
// The Vulkan loader is opened at the first init (vk_device.h): on a machine
// without one, or without a driver, loading a Vulkan-delegated method fails
// with NotSupported and a message naming VulkanBackend; other programs are
// unaffected.
//
// init(): the blob is parsed and checked (vk_payload.h, vk_graph.h), every
// operator of the chain is looked up (ops/vk_ops.h: an unknown one fails
// with NotSupported naming all of them), the builders turn the chain into
// dispatches, and the executable (vk_executable.h) places the tensors,
// uploads the constants and records the command buffer. The blob is freed
// afterwards. execute(): inputs in, one submission, outputs out.
//
// Tracing: with an EventTracer that profiles, each dispatch is reported as
// a delegate event named after its operator, timed by the device's
// timestamp queries.
#pragma once

namespace ember::vulkan {

constexpr const char* kVulkanBackendId = "VulkanBackend";

}  // namespace ember::vulkan
