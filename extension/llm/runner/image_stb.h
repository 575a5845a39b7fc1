// stb_image behind three calls: the one translation unit of Ember that
// compiles stb (image_stb.cpp, Debian's libstb-dev, decode only, PNG, JPEG
// and BMP from memory, every stb symbol private to it). Internal to the
// image loader (image_loader.cpp), which checks a file first
// (image_stb_checks.h) and owns the limits and the messages.
#pragma once

#include <cstdint>

#include "runtime/core/span.h"

namespace ember::llm {

// Why stb failed: its own words (which may quote the file's bytes: escape
// them before printing), "no reason given" when it gave none. Static
// storage.
struct StbFailure {
  const char* reason = "";
  bool out_of_memory = false;  // one of stb's allocations failed
};

// The picture's size from its header, without decoding it.
bool stb_image_size(Span<const uint8_t> bytes, int* width, int* height, StbFailure* failure);

// The picture decoded to 8-bit RGB rows (height * width * 3 bytes), or
// null. Free it with stb_image_release().
uint8_t* stb_image_rgb(Span<const uint8_t> bytes, int* width, int* height,
                       StbFailure* failure);
void stb_image_release(uint8_t* pixels);

}  // namespace ember::llm
