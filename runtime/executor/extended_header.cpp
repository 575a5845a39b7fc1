#include "runtime/executor/extended_header.h"

#include <cstring>

#include "runtime/core/little_endian.h"

namespace ember {
namespace {

constexpr char kMagic[4] = {'e', 'h', '0', '0'};
constexpr uint32_t kMinLength = 4 + 4 + 8 + 8;
constexpr uint32_t kLengthWithDataSize = kMinLength + 8;

}  // namespace

Result<ExtendedHeader> ExtendedHeader::parse(const void* head, size_t size) {
  const uint8_t* bytes = static_cast<const uint8_t*>(head);
  if (size < kOffset + sizeof(kMagic) ||
      std::memcmp(bytes + kOffset, kMagic, sizeof(kMagic)) != 0) {
    return Error::NotFound;
  }
  const uint8_t* h = bytes + kOffset;
  if (size < kOffset + kMinLength) {
    set_error_message("extended header truncated: file has %zu bytes, the "
                      "header needs %zu",
                      size, size_t(kOffset + kMinLength));
    return Error::InvalidProgram;
  }
  const uint32_t length = read_le32(h + 4);
  if (length < kMinLength) {
    set_error_message("extended header length %u is smaller than the minimum %u",
                      unsigned(length), unsigned(kMinLength));
    return Error::InvalidProgram;
  }
  ExtendedHeader header;
  header.program_size = read_le64(h + 8);
  header.segment_base_offset = read_le64(h + 16);
  if (length >= kLengthWithDataSize) {
    if (size < kOffset + kLengthWithDataSize) {
      set_error_message("extended header truncated: length %u but file has "
                        "%zu bytes",
                        unsigned(length), size);
      return Error::InvalidProgram;
    }
    header.segment_data_size = read_le64(h + 24);
    header.has_segment_data_size = true;
  }
  return header;
}

}  // namespace ember
