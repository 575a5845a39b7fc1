// The XNNPACK delegate's processed blob: an optional header, the graph
// flatbuffer, and the constant data that follows it.
//
// Layout with the header (all little-endian, as upstream writes it):
//   [0, 4)    zero (so the magic sits where a flatbuffer's identifier does)
//   [4, 8)    "XH00"
//   [8, 10)   header length (at least 30)
//   [10, 14)  flatbuffer offset      [14, 18) flatbuffer size
//   [18, 22)  constant data offset   [22, 30) constant data size
// Without the magic the whole blob is a bare flatbuffer (older files).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace ember::xnnpack {

struct Payload {
  const uint8_t* flatbuffer = nullptr;
  size_t flatbuffer_size = 0;
  // Null when the blob has no header (constants live in the flatbuffer).
  const uint8_t* constants = nullptr;
  size_t constants_size = 0;
  bool has_header = false;
};

// Splits `data` into its parts. Every offset and size is checked against
// `size`; InvalidProgram (with a message) when one falls outside, or when
// the flatbuffer identifier is neither "XN01" nor "XN00" (then
// DelegateInvalidCompatibility).
Error parse_payload(const void* data, size_t size, Payload* out);

}  // namespace ember::xnnpack
