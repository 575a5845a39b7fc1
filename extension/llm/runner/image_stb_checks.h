// Checks the image loader (image_loader.cpp) makes on a PNG, JPEG or BMP
// file before stb_image reads it, for what the stb_image of Debian
// bookworm's libstb-dev (2.27) mishandles: memory it would write or read
// out of bounds, uninitialized tables it would decode with, and files cut
// short that it would fill with zeros. Each returns true for a file stb may
// read (stb still makes its own checks and may refuse it), or false with
// last_error_message() saying "image '<name>': ..." (`name` already
// escaped). Internal to the loader; its tests are image_loader_test.cpp's.
#pragma once

#include <cstdint>

#include "runtime/core/span.h"

namespace ember::llm {

// Refuses a chunk longer than what is left of the file (stb allocates for
// it first), a file without IEND, and an empty first IDAT chunk (stb
// copies it to a null pointer).
bool png_checked(Span<const uint8_t> bytes, const char* name);

// Walks the segments as stb's decoder does and refuses: a Huffman table
// of more than 256 codes (stb writes past its table); a scan that decodes
// with a Huffman or quantization table no earlier segment defined (stb
// reads its uninitialized memory, and indexes with what it finds there);
// a file that ends before its EOI marker.
bool jpeg_checked(Span<const uint8_t> bytes, const char* name);

// Refuses an uncompressed BMP whose rows end past the end of the file
// (stb reads the missing part as zeros).
bool bmp_complete(Span<const uint8_t> bytes, const char* name);

}  // namespace ember::llm
