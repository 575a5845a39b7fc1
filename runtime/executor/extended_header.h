// The optional extended header of a .pte file.
//
// It sits right after the 8-byte flatbuffer header (root offset + file
// identifier), starts with the magic "eh00", and says where the flatbuffer
// ends and where the data segments begin:
//   offset 8   "eh00"
//   offset 12  uint32 header length (>= 24; later versions append fields)
//   offset 16  uint64 program size (bytes of the flatbuffer from offset 0)
//   offset 24  uint64 segment base offset (0 when there are no segments)
//   offset 32  uint64 segment data size (present when length >= 32)
// All little-endian.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"

namespace ember {

struct ExtendedHeader {
  // Bytes of the file head needed to find and parse the header.
  static constexpr size_t kNumHeadBytes = 64;
  static constexpr size_t kOffset = 8;

  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  // Zero when the header predates the field.
  uint64_t segment_data_size = 0;
  bool has_segment_data_size = false;

  // Parses the header from the first `size` bytes of a file. NotFound when
  // the magic is absent (a program without the header is valid);
  // InvalidProgram with a message when the magic is present but the header
  // is malformed or cut short.
  static Result<ExtendedHeader> parse(const void* head, size_t size);
};

}  // namespace ember
