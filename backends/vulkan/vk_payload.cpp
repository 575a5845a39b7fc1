#include "backends/vulkan/vk_payload.h"

#include <cstring>

#include "runtime/core/little_endian.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {

Error parse_payload(const void* data, size_t size, Payload* out) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  *out = Payload();
  EMBER_CHECK_OR_RETURN(bytes != nullptr && size >= kVulkanHeaderSize, Error::InvalidProgram,
                        "VulkanBackend blob of %zu bytes is shorter than its %zu-byte header",
                        size, kVulkanHeaderSize);
  if (std::memcmp(bytes + 4, "VH00", 4) != 0) {
    char shown[17];
    printable_identifier(reinterpret_cast<const char*>(bytes) + 4, shown);
    set_error_message("VulkanBackend blob has magic '%s' where 'VH00' belongs", shown);
    return Error::InvalidProgram;
  }
  const uint16_t header_size = uint16_t(bytes[8] | bytes[9] << 8);
  const uint32_t fb_offset = read_le32(bytes + 10);
  const uint32_t fb_size = read_le32(bytes + 14);
  const uint32_t raw_offset = read_le32(bytes + 18);
  const uint64_t raw_size = read_le64(bytes + 22);
  EMBER_CHECK_OR_RETURN(header_size == kVulkanHeaderSize, Error::InvalidProgram,
                        "VulkanBackend header length %u, expected %zu", unsigned(header_size),
                        kVulkanHeaderSize);
  EMBER_CHECK_OR_RETURN(fb_offset >= header_size && fb_size >= 8 &&
                            uint64_t(fb_offset) + fb_size <= size,
                        Error::InvalidProgram,
                        "VulkanBackend flatbuffer [%u, +%u) outside the blob of %zu bytes",
                        fb_offset, fb_size, size);
  EMBER_CHECK_OR_RETURN(raw_offset >= uint64_t(fb_offset) + fb_size && raw_offset <= size &&
                            raw_size <= size - raw_offset,
                        Error::InvalidProgram,
                        "VulkanBackend raw bytes [%u, +%llu) outside the blob of %zu bytes "
                        "or overlapping the flatbuffer",
                        raw_offset, static_cast<unsigned long long>(raw_size), size);
  out->flatbuffer = bytes + fb_offset;
  out->flatbuffer_size = fb_size;
  out->raw_bytes = bytes + raw_offset;
  out->raw_bytes_size = size_t(raw_size);
  const char* id = reinterpret_cast<const char*>(out->flatbuffer) + 4;
  if (std::memcmp(id, "VK00", 4) != 0) {
    char shown[17];
    printable_identifier(id, shown);
    set_error_message("VulkanBackend graph identifier '%s' is not VK00", shown);
    return Error::DelegateInvalidCompatibility;
  }
  return Error::Ok;
}

}  // namespace ember::vulkan
