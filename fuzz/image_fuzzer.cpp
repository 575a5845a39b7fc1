// Fuzz target: the image loader (extension/llm/runner/image_loader.h), as
// the multimodal runners read a picture from a path the user gives: PNG,
// JPEG and BMP through stb_image, .npy through parse_npy, told apart by
// the first bytes. A picture that loads is resized (to a size taken from
// its own) and normalized, so the resize's weights meet fuzzed sizes.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "extension/llm/runner/image_loader.h"

namespace {

using ember::Result;
using ember::llm::Image;

// A harness bound, not the loader's: 1024 px a side and 1 Mpx keep each
// input to milliseconds (a JPEG header may ask for 16384 x 8192 pixels
// and stb decodes every one of them from a few bytes).
constexpr ember::llm::ImageLimits kLimits{1024, int64_t(1) << 20};

void check(const Image& image) {
  const size_t n = image.numel();
  const bool ok = image.channels == 3 && image.height >= 1 && image.width >= 1 &&
                  image.height <= kLimits.max_side && image.width <= kLimits.max_side &&
                  (image.is_float() ? image.f32.size() == n && image.u8.empty()
                                    : image.u8.size() == n);
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Result<Image> image = ember::llm::load_image_from_memory({data, size}, "fuzz-input", kLimits);
  if (!image.ok()) return 0;
  check(*image);
  // Shrink one side and enlarge the other, from the image's own size.
  const int32_t height = image->height / 3 + 1;
  const int32_t width = image->width % 97 + 2;
  Result<Image> resized = ember::llm::resize_image(*image, height, width);
  if (!resized.ok() || resized->height != height || resized->width != width) __builtin_trap();
  check(*resized);
  const float mean[3] = {0.5f, 0.5f, 0.5f};
  const float std[3] = {0.5f, 0.25f, 2.0f};
  Result<Image> normalized = ember::llm::normalize_image(*resized, mean, std, 1.0f / 255.0f);
  if (!normalized.ok()) __builtin_trap();
  check(*normalized);
  if (!image->is_float()) {
    // From uint8: every value is within (0 - 0.5) / 0.25 .. (1 - 0.5) / 0.25.
    for (float v : normalized->f32) {
      if (!(v >= -2.0001f && v <= 2.0001f)) __builtin_trap();
    }
  }
  return 0;
}
