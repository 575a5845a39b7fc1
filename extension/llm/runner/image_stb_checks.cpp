#include "extension/llm/runner/image_stb_checks.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/platform/error.h"

namespace ember::llm {
namespace {

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
uint32_t le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

// --- PNG ------------------------------------------------------------------

// The walk follows the chunks as stb does, up to IEND: each must fit in
// the file (stb would allocate for an IDAT's stated length before finding
// the bytes missing, up to 2 GiB), and the first IDAT must not be empty.
bool png_checked(Span<const uint8_t> bytes, const char* name) {
  bool seen_data = false;
  for (size_t pos = 8;;) {  // after the signature
    if (bytes.size() - pos < 12) {
      set_error_message("image '%s': the PNG file is cut short: it ends before its IEND chunk",
                        name);
      return false;
    }
    const uint32_t length = be32(bytes.data() + pos);
    const uint8_t* type = bytes.data() + pos + 4;
    if (length > bytes.size() - pos - 12) {
      char shown[17];
      printable_bytes(type, 4, shown, sizeof(shown));
      set_error_message("image '%s': the PNG file's chunk \"%s\" at offset %zu says %u bytes; "
                        "%zu are left", name, shown, pos, unsigned(length),
                        bytes.size() - pos - 12);
      return false;
    }
    if (std::memcmp(type, "IEND", 4) == 0) return true;
    if (std::memcmp(type, "IDAT", 4) == 0 && !seen_data) {
      EMBER_CHECK_OR_RETURN(length != 0, false,
                            "image '%s': the PNG file's first IDAT chunk (offset %zu) is empty",
                            name, pos);
      seen_data = true;
    }
    pos += 12 + size_t(length);
  }
}

// --- BMP ------------------------------------------------------------------

// Rows of ceil(bits * width / 32) * 4 bytes from the pixel offset on; for
// the 12-byte OS/2 header and the 40-byte-or-longer Windows ones, with no
// compression or with bit fields (the kinds stb reads).
bool bmp_complete(Span<const uint8_t> bytes, const char* name) {
  if (bytes.size() < 30) return true;  // stb refuses the header itself
  const uint8_t* p = bytes.data();
  const uint32_t offset = le32(p + 10);
  const uint32_t header = le32(p + 14);
  uint64_t width = 0, height = 0, bits = 0;
  if (header == 12) {
    width = uint64_t(p[18] | p[19] << 8);
    height = uint64_t(p[20] | p[21] << 8);
    bits = uint64_t(p[24] | p[25] << 8);
  } else {
    if (bytes.size() < 34) return true;
    const uint32_t compression = le32(p + 30);
    if (compression != 0 && compression != 3 && compression != 6) return true;
    width = uint64_t(std::llabs(int64_t(int32_t(le32(p + 18)))));
    height = uint64_t(std::llabs(int64_t(int32_t(le32(p + 22)))));  // negative: top-down
    bits = uint64_t(p[28] | p[29] << 8);
  }
  const uint64_t end = uint64_t(offset) + (bits * width + 31) / 32 * 4 * height;
  EMBER_CHECK_OR_RETURN(end <= bytes.size(), false,
                        "image '%s': the BMP file is cut short: its pixels end at byte %llu, "
                        "the file has %zu", name, (unsigned long long)end, bytes.size());
  return true;
}

// --- JPEG -----------------------------------------------------------------
//
// The walk must reach every segment stb would read: before the frame
// header (SOF0-2) stb skips stray bytes between segments; after a scan's
// header it reads entropy-coded data, which ends at the first FF followed
// by neither 00 (a stuffed FF) nor a restart marker (D0-D7). Wherever stb
// itself gives up (an unknown marker, a length below 2, a bad table
// class), the walk stops and leaves the refusal to stb.

namespace {

// stb reads zeros past the end of the buffer; so does the walk.
uint8_t byte_or_zero(Span<const uint8_t> bytes, size_t at) {
  return at < bytes.size() ? bytes[at] : 0;
}

// What the segments so far have defined, as stb keeps it.
struct JpegState {
  bool dc[4] = {}, ac[4] = {}, quant[4] = {};
  bool progressive = false;
  int components = 0;
  uint8_t id[4] = {}, quant_of[4] = {};
};

enum class Walk { kGoOn, kStbRefuses, kRefused };

bool cut_short(const char* name) {
  set_error_message("image '%s': the JPEG file is cut short: it ends before its end marker "
                    "(FF D9)", name);
  return false;
}

// The tables of the DHT segment whose body starts at `pos` (`length` as
// its 2 bytes say), read as stb reads them: each at most 256 codes.
Walk huffman_tables(Span<const uint8_t> bytes, size_t pos, long length, JpegState& state,
                    const char* name) {
  for (long left = length - 2; left > 0;) {
    const uint8_t q = byte_or_zero(bytes, pos);
    if ((q >> 4) > 1 || (q & 15) > 3) return Walk::kStbRefuses;
    long codes = 0;
    for (size_t i = 1; i <= 16; ++i) codes += byte_or_zero(bytes, pos + i);
    if (codes > 256) {
      set_error_message("image '%s': the JPEG file's Huffman table at offset %zu has %ld codes; "
                        "at most 256 are allowed", name, pos, codes);
      return Walk::kRefused;
    }
    ((q >> 4) == 0 ? state.dc : state.ac)[q & 15] = true;
    pos += 17 + size_t(codes);
    left -= 17 + codes;
  }
  return Walk::kGoOn;
}

Walk quantization_tables(Span<const uint8_t> bytes, size_t pos, long length, JpegState& state) {
  for (long left = length - 2; left > 0;) {
    const uint8_t q = byte_or_zero(bytes, pos);
    if ((q >> 4) > 1 || (q & 15) > 3) return Walk::kStbRefuses;
    state.quant[q & 15] = true;
    const long size = (q >> 4) != 0 ? 129 : 65;
    pos += size_t(size);
    left -= size;
  }
  return Walk::kGoOn;
}

void frame_header(Span<const uint8_t> bytes, size_t pos, uint8_t marker, JpegState& state) {
  state.progressive = marker == 0xC2;
  const int count = byte_or_zero(bytes, pos + 5);
  state.components = count < 4 ? count : 4;
  for (int c = 0; c < state.components; ++c) {
    state.id[c] = byte_or_zero(bytes, pos + 6 + 3 * size_t(c));
    state.quant_of[c] = byte_or_zero(bytes, pos + 8 + 3 * size_t(c)) & 3;
  }
}

// A scan's header at `pos`: every table it decodes with defined before it.
Walk scan_header(Span<const uint8_t> bytes, size_t pos, const JpegState& state, size_t at,
                 const char* name) {
  const int count = byte_or_zero(bytes, pos);
  if (count < 1 || count > 4 || state.components == 0) return Walk::kStbRefuses;
  const uint8_t spectral_start = byte_or_zero(bytes, pos + 1 + 2 * size_t(count));
  const uint8_t approximation = byte_or_zero(bytes, pos + 3 + 2 * size_t(count));
  const bool needs_dc = !state.progressive || (spectral_start == 0 && (approximation >> 4) == 0);
  const bool needs_ac = !state.progressive || spectral_start != 0;
  for (int k = 0; k < count; ++k) {
    const uint8_t id = byte_or_zero(bytes, pos + 1 + 2 * size_t(k));
    const uint8_t tables = byte_or_zero(bytes, pos + 2 + 2 * size_t(k));
    int c = 0;
    while (c < state.components && state.id[c] != id) ++c;
    if (c == state.components || (tables >> 4) > 3 || (tables & 15) > 3) {
      return Walk::kStbRefuses;
    }
    // The first table the scan lacks, named as the JPEG standard does.
    char missing[32] = "";
    if (!state.quant[state.quant_of[c]]) {
      std::snprintf(missing, sizeof(missing), "quantization table %d", int(state.quant_of[c]));
    } else if (needs_dc && !state.dc[tables >> 4]) {
      std::snprintf(missing, sizeof(missing), "Huffman table DC%d", tables >> 4);
    } else if (needs_ac && !state.ac[tables & 15]) {
      std::snprintf(missing, sizeof(missing), "Huffman table AC%d", tables & 15);
    }
    if (missing[0] != '\0') {
      set_error_message("image '%s': the JPEG file's scan at offset %zu decodes component %d "
                        "with %s, which no segment before it defines", name, at, int(id),
                        missing);
      return Walk::kRefused;
    }
  }
  return Walk::kGoOn;
}

// The offset of the marker that ends the entropy-coded data from `pos`,
// or the buffer's size when none does.
size_t entropy_data_end(Span<const uint8_t> bytes, size_t pos) {
  while (pos < bytes.size()) {
    if (bytes[pos] != 0xFF) {
      ++pos;
      continue;
    }
    size_t next = pos + 1;
    while (next < bytes.size() && bytes[next] == 0xFF) ++next;
    if (next >= bytes.size()) return bytes.size();
    const uint8_t code = bytes[next];
    if (code != 0x00 && (code < 0xD0 || code > 0xD7)) return pos;
    pos = next + 1;
  }
  return pos;
}

// The segment of `marker` whose length bytes start at `pos`.
Walk segment(Span<const uint8_t> bytes, size_t pos, uint8_t marker, JpegState& state,
             const char* name) {
  const long length = long(byte_or_zero(bytes, pos)) << 8 | byte_or_zero(bytes, pos + 1);
  switch (marker) {
    case 0xC4: return huffman_tables(bytes, pos + 2, length, state, name);
    case 0xDB: return quantization_tables(bytes, pos + 2, length, state);
    case 0xC0:
    case 0xC1:
    case 0xC2: frame_header(bytes, pos + 2, marker, state); return Walk::kGoOn;
    case 0xDA: return scan_header(bytes, pos + 2, state, pos - 2, name);
    default: return Walk::kGoOn;
  }
}

}  // namespace

bool jpeg_checked(Span<const uint8_t> bytes, const char* name) {
  JpegState state;
  size_t pos = 2;         // after SOI (FF D8)
  bool in_header = true;  // before the frame header
  for (;;) {
    if (pos >= bytes.size()) return cut_short(name);
    if (bytes[pos] != 0xFF) {
      if (!in_header) return true;  // stb: "expected marker"
      ++pos;
      continue;
    }
    while (pos < bytes.size() && bytes[pos] == 0xFF) ++pos;
    if (pos >= bytes.size()) return cut_short(name);
    const uint8_t marker = bytes[pos++];
    if (marker == 0xD9) return true;
    // Markers without a length: stb refuses each of them here.
    if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) return true;
    // Before the length is checked against the buffer: stb reads the
    // tables of a segment cut short all the same.
    const Walk walk = segment(bytes, pos, marker, state, name);
    if (walk != Walk::kGoOn) return walk == Walk::kStbRefuses;
    if (bytes.size() - pos < 2) return cut_short(name);
    const size_t length = size_t(bytes[pos]) << 8 | bytes[pos + 1];
    if (length < 2) return true;  // stb refuses it
    if (length > bytes.size() - pos) return cut_short(name);
    pos += length;
    if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) in_header = false;
    if (marker == 0xDA) pos = entropy_data_end(bytes, pos);
  }
}

}  // namespace ember::llm
