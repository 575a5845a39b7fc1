#include "backends/xnnpack/xnn_payload.h"

#include <cstring>

#include "runtime/core/little_endian.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kMagicOffset = 4;
constexpr size_t kMinHeaderSize = 30;

}  // namespace

Error parse_payload(const void* data, size_t size, Payload* out) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  *out = Payload();
  EMBER_CHECK_OR_RETURN(bytes != nullptr && size >= 8, Error::InvalidProgram,
                        "XNNPACK blob of %zu bytes is too small", size);
  if (std::memcmp(bytes + kMagicOffset, "XH00", 4) == 0) {
    EMBER_CHECK_OR_RETURN(size >= kMinHeaderSize, Error::InvalidProgram,
                          "XNNPACK header truncated: blob has %zu bytes, header needs %zu",
                          size, kMinHeaderSize);
    const uint16_t header_size = uint16_t(bytes[8] | bytes[9] << 8);
    const uint32_t fb_offset = read_le32(bytes + 10);
    const uint32_t fb_size = read_le32(bytes + 14);
    const uint32_t const_offset = read_le32(bytes + 18);
    const uint64_t const_size = read_le64(bytes + 22);
    EMBER_CHECK_OR_RETURN(header_size >= kMinHeaderSize && header_size <= size,
                          Error::InvalidProgram,
                          "XNNPACK header length %u outside [%zu, %zu]", header_size,
                          kMinHeaderSize, size);
    EMBER_CHECK_OR_RETURN(fb_offset >= header_size && fb_size >= 8 &&
                              uint64_t(fb_offset) + fb_size <= size,
                          Error::InvalidProgram,
                          "XNNPACK flatbuffer [%u, +%u) outside the blob of %zu bytes "
                          "(after the %u-byte header)",
                          fb_offset, fb_size, size, header_size);
    EMBER_CHECK_OR_RETURN(const_offset >= uint64_t(fb_offset) + fb_size &&
                              const_offset <= size && const_size <= size - const_offset,
                          Error::InvalidProgram,
                          "XNNPACK constant data [%u, +%llu) outside the blob of %zu bytes "
                          "or overlapping the flatbuffer",
                          const_offset, static_cast<unsigned long long>(const_size), size);
    out->flatbuffer = bytes + fb_offset;
    out->flatbuffer_size = fb_size;
    out->constants = bytes + const_offset;
    out->constants_size = size_t(const_size);
    out->has_header = true;
  } else {
    out->flatbuffer = bytes;
    out->flatbuffer_size = size;
  }
  const char* id = reinterpret_cast<const char*>(out->flatbuffer) + 4;
  if (std::memcmp(id, "XN01", 4) != 0 && std::memcmp(id, "XN00", 4) != 0) {
    char shown[17];
    printable_identifier(id, shown);
    set_error_message("XNNPACK graph identifier '%s' is neither XN01 nor XN00", shown);
    return Error::DelegateInvalidCompatibility;
  }
  return Error::Ok;
}

}  // namespace ember::xnnpack
