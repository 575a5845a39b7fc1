// Images for multimodal prompts: decoding a file into planar pixels, and
// the resize and normalization a vision encoder expects.
//
// load_image() reads PNG, JPEG and BMP (decoded by stb_image, Debian's
// libstb-dev, compiled into this library with its symbols kept private)
// and NumPy .npy arrays. Which one a file is comes from its first bytes,
// not its name. Before stb reads a file, the checks of image_stb_checks.h
// refuse what that stb (Debian bookworm's 2.27) mishandles. A decoded picture always becomes 3 channels of uint8, as
// upstream's processors see it: gray is repeated into R, G and B, an alpha
// channel is dropped (not composited), 16-bit samples keep their top byte.
// An .npy array is taken as it is: shape [3, H, W] or [1, 3, H, W], uint8
// or float32, no conversion.
//
// Every error is a Result with last_error_message() naming the file (its
// name escaped) and the cause: InvalidArgument for a file that is not an
// image Ember reads, is malformed (the decoder's reason is quoted), or is
// larger than the limits; MemoryAllocationFailed when the decoder ran out
// of memory; AccessFailed when the file cannot be read. The limits are
// checked from the header, before the pixels are allocated.
//
// resize_image(), normalize_image() and the presets (apply_image_preset)
// turn a decoded image into what an encoder program takes; the presets
// name what upstream's example runners do. Nothing here knows a program:
// the caller makes the tensor (multimodal_input.h) from Image's buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember::llm {

// Planar pixels (CHW: all of channel 0 row by row, then channel 1, ...).
// Exactly one of u8 and f32 holds channels * height * width values.
struct Image {
  int32_t channels = 0;
  int32_t height = 0;
  int32_t width = 0;
  std::vector<uint8_t> u8;
  std::vector<float> f32;

  bool is_float() const { return !f32.empty(); }
  // channels * height * width.
  size_t numel() const { return size_t(channels) * size_t(height) * size_t(width); }
};

// The largest side, and the most pixels (height * width), accepted from a
// file or asked of resize_image(). kMaxImagePixels is 128 Mpx: a 3-channel
// float copy of it is 1.5 GiB.
constexpr int32_t kMaxImageSide = 16384;
constexpr int64_t kMaxImagePixels = int64_t(1) << 27;

// Tighter limits for a caller that wants them (the fuzz target does);
// values above the constants above are clamped to them.
struct ImageLimits {
  int32_t max_side = kMaxImageSide;
  int64_t max_pixels = kMaxImagePixels;
};

// Reads and decodes `path` (see the top of this file).
Result<Image> load_image(const std::string& path, const ImageLimits& limits = {});

// The same from bytes in memory; `name` is what messages call the input
// (not dereferenced after the call; null reads as "image"). The bytes are
// read, never kept.
Result<Image> load_image_from_memory(Span<const uint8_t> bytes, const char* name,
                                     const ImageLimits& limits = {});

// `image` resized to height x width, each channel on its own, by a
// separable triangle (bilinear) filter on pixel centres, widened by the
// shrink factor when shrinking so every source pixel counts (antialiased):
// the values of torch's F.interpolate(mode="bilinear", align_corners=False,
// antialias=True) and PIL's BILINEAR resample, which Hugging Face's image
// processors for Gemma 3 and upstream's LLaVA export (torchvision's Resize)
// use. When enlarging it is plain bilinear interpolation. Upstream's C++
// runners (examples/models/llava/main.cpp, gemma3/e2e_runner.cpp) resize
// with stb_image_resize's defaults instead (Mitchell when shrinking,
// Catmull-Rom when enlarging), so their pixels differ from these by a few
// levels. A uint8 image stays uint8 (rounded to nearest, clamped to
// 0..255); a float image stays float. InvalidArgument for an inconsistent
// image or a size below 1 or past the limits.
Result<Image> resize_image(const Image& image, int32_t height, int32_t width);

// A 3-channel image as float: (value * scale - mean[c]) / std[c] for
// channel c (scale 1/255 turns uint8 into 0..1). A float image is scaled
// too. InvalidArgument unless the image has 3 channels and every std[c] is
// finite and non-zero, scale and mean finite.
Result<Image> normalize_image(const Image& image, const float mean[3], const float std[3],
                              float scale);

// What an example runner of upstream does to a decoded picture before its
// vision encoder; the table is in image_loader.cpp with the sources.
enum class ImageResize {
  kNone,         // size kept
  kExact,        // to height x width, aspect ratio not kept
  kLongestEdge,  // the longer side to `longest`, the other scaled by the
                 // same factor and truncated (at least 1)
};

struct ImagePreset {
  const char* name;
  ImageResize resize;
  int32_t height;   // kExact (0: the encoder's input, filled in by the caller)
  int32_t width;    // kExact (0: likewise)
  int32_t longest;  // kLongestEdge
  bool to_float;    // false: uint8 handed over as is
  float scale;      // to_float: value * scale ...
  float mean[3];    // ... - mean[c] ...
  float std[3];     // ... / std[c]
};

// The preset called `name`, or InvalidArgument naming the known ones.
// The returned pointer is to static storage.
Result<const ImagePreset*> find_image_preset(const std::string& name);
// The known presets' names, comma-separated (for a command line's help).
std::string image_preset_names();

// The sizes kLongestEdge gives a height x width picture.
void longest_edge_size(int32_t height, int32_t width, int32_t longest, int32_t* out_height,
                       int32_t* out_width);

// `image` resized and converted as `preset` says. InvalidArgument for a
// float image when the preset converts (presets start from 8-bit pixels:
// an .npy file is taken as is, without a preset), or for what
// resize_image() and normalize_image() refuse.
Result<Image> apply_image_preset(const Image& image, const ImagePreset& preset);

}  // namespace ember::llm
