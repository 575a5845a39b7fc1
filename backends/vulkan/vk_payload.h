// The Vulkan delegate's processed blob: a fixed header, the VkGraph
// flatbuffer, then the raw bytes that VkBytes entries without a named key
// point into.
//
// Header (little-endian, as upstream's VulkanBackend writes it):
//   [0, 4)    unused
//   [4, 8)    "VH00"
//   [8, 10)   header length (30)
//   [10, 14)  flatbuffer offset      [14, 18) flatbuffer size
//   [18, 22)  raw bytes offset       [22, 30) raw bytes size
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace ember::vulkan {

struct Payload {
  const uint8_t* flatbuffer = nullptr;
  size_t flatbuffer_size = 0;
  const uint8_t* raw_bytes = nullptr;
  size_t raw_bytes_size = 0;
};

constexpr size_t kVulkanHeaderSize = 30;

// Splits `data` into its parts. Every offset and size is checked against
// `size`: InvalidProgram with a message when one falls outside or the
// magic is missing; DelegateInvalidCompatibility when the flatbuffer's
// identifier is not "VK00".
Error parse_payload(const void* data, size_t size, Payload* out);

}  // namespace ember::vulkan
