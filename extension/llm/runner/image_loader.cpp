#include "extension/llm/runner/image_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "extension/file_util/read_file.h"
#include "extension/llm/runner/image_stb.h"
#include "extension/llm/runner/image_stb_checks.h"
#include "extension/npy/npy.h"
#include "kernels/math/antialias.h"
#include "runtime/core/error_message.h"
#include "runtime/core/scalar_type.h"

namespace ember::llm {
namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";

bool starts_with(Span<const uint8_t> bytes, const char* magic, size_t size) {
  return bytes.size() >= size && std::memcmp(bytes.data(), magic, size) == 0;
}

ImageLimits clamped(const ImageLimits& limits) {
  ImageLimits out;
  out.max_side = std::clamp(limits.max_side, int32_t(1), kMaxImageSide);
  out.max_pixels = std::clamp(limits.max_pixels, int64_t(1), kMaxImagePixels);
  return out;
}

// Records why height x width is refused (for `what`: a file's name or an
// argument), or returns true.
bool size_within(int64_t height, int64_t width, const ImageLimits& limits, const char* what) {
  if (height < 1 || width < 1) {
    set_error_message("%s: %lld x %lld pixels: both sides must be at least 1", what,
                      (long long)height, (long long)width);
    return false;
  }
  if (height > limits.max_side || width > limits.max_side ||
      height * width > limits.max_pixels) {
    set_error_message("%s: %lld x %lld pixels is too large (at most %d a side and %lld "
                      "pixels in all)", what, (long long)height, (long long)width,
                      int(limits.max_side), (long long)limits.max_pixels);
    return false;
  }
  return true;
}

// stb decodes interleaved rows (HWC); Image is planar (CHW).
Image planar_from_interleaved(const uint8_t* pixels, int32_t height, int32_t width,
                              int32_t channels) {
  Image image;
  image.channels = channels;
  image.height = height;
  image.width = width;
  image.u8.resize(image.numel());
  const size_t plane = size_t(height) * size_t(width);
  for (size_t i = 0; i < plane; ++i) {
    for (int32_t c = 0; c < channels; ++c) {
      image.u8[size_t(c) * plane + i] = pixels[i * size_t(channels) + size_t(c)];
    }
  }
  return image;
}

// The formats stb decodes here, told apart by their first bytes; each
// with its checks made before stb reads the file (image_stb_checks.h).
struct StbFormat {
  const char* magic;
  size_t magic_size;
  const char* name;
  bool (*check)(Span<const uint8_t> bytes, const char* name);
};
constexpr StbFormat kStbFormats[] = {
    {"\x89PNG\r\n\x1a\n", 8, "PNG", png_checked},
    {"\xff\xd8\xff", 3, "JPEG", jpeg_checked},
    {"BM", 2, "BMP", bmp_complete},
};

struct StbRelease {
  void operator()(uint8_t* p) const { stb_image_release(p); }
};

Result<Image> decode_with_stb(Span<const uint8_t> bytes, const char* name,
                              const StbFormat& stb_format, const ImageLimits& limits) {
  const char* format = stb_format.name;
  if (!stb_format.check(bytes, name)) return Error::InvalidArgument;
  int width = 0, height = 0;
  StbFailure failure;
  EMBER_CHECK_OR_RETURN(stb_image_size(bytes, &width, &height, &failure),
                        Error::InvalidArgument, "image '%s': cannot read the %s header: %s",
                        name, format, PrintableName(failure.reason).c_str());
  char what[160];
  std::snprintf(what, sizeof(what), "image '%s'", name);
  if (!size_within(height, width, limits, what)) return Error::InvalidArgument;

  int got_width = 0, got_height = 0;
  std::unique_ptr<uint8_t, StbRelease> pixels(
      stb_image_rgb(bytes, &got_width, &got_height, &failure));
  if (pixels == nullptr) {
    set_error_message("image '%s': cannot decode the %s file: %s", name, format,
                      PrintableName(failure.reason).c_str());
    return failure.out_of_memory ? Error::MemoryAllocationFailed : Error::InvalidArgument;
  }
  EMBER_CHECK_OR_RETURN(got_width == width && got_height == height, Error::Internal,
                        "image '%s': the %s header said %d x %d, the decoder gave %d x %d",
                        name, format, height, width, got_height, got_width);
  return planar_from_interleaved(pixels.get(), height, width, 3);
}

Result<Image> image_from_npy(Span<const uint8_t> bytes, const char* name,
                             const ImageLimits& limits) {
  Result<NpyArray> array = parse_npy(bytes.data(), bytes.size());
  if (!array.ok()) {
    prefix_error_message(error_name(array.error()), "image '%s'", name);
    return array.error();
  }
  EMBER_CHECK_OR_RETURN(
      array->dtype == ScalarType::Byte || array->dtype == ScalarType::Float,
      Error::InvalidArgument, "image '%s': an .npy array of %s; uint8 or float32 is accepted",
      name, scalar_type_name(array->dtype));
  const std::vector<SizesType>& shape = array->shape;
  const bool chw = shape.size() == 3 && shape[0] == 3;
  const bool nchw = shape.size() == 4 && shape[0] == 1 && shape[1] == 3;
  if (!chw && !nchw) {
    std::string shown;
    for (size_t i = 0; i < shape.size(); ++i) {
      shown += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
    }
    set_error_message("image '%s': an .npy array of shape [%s]; [3, H, W] or [1, 3, H, W] "
                      "is accepted", name, shown.c_str());
    return Error::InvalidArgument;
  }
  Image image;
  image.channels = 3;
  image.height = shape[shape.size() - 2];
  image.width = shape[shape.size() - 1];
  char what[160];
  std::snprintf(what, sizeof(what), "image '%s'", name);
  if (!size_within(image.height, image.width, limits, what)) return Error::InvalidArgument;
  if (array->dtype == ScalarType::Byte) {
    image.u8 = std::move(array->data);
    return image;
  }
  image.f32.resize(image.numel());
  std::memcpy(image.f32.data(), array->data.data(), image.numel() * sizeof(float));
  for (size_t i = 0; i < image.f32.size(); ++i) {
    EMBER_CHECK_OR_RETURN(std::isfinite(image.f32[i]), Error::InvalidArgument,
                          "image '%s': value %zu of the .npy array is not finite", name, i);
  }
  return image;
}

}  // namespace

Result<Image> load_image_from_memory(Span<const uint8_t> bytes, const char* name,
                                     const ImageLimits& limits) {
  const PrintableName shown(name != nullptr ? name : "image");
  const ImageLimits bounded = clamped(limits);
  EMBER_CHECK_OR_RETURN(!bytes.empty(), Error::InvalidArgument, "image '%s': the file is empty",
                        shown.c_str());
  if (starts_with(bytes, kNpyMagic, sizeof(kNpyMagic) - 1)) {
    return image_from_npy(bytes, shown.c_str(), bounded);
  }
  for (const StbFormat& format : kStbFormats) {
    if (starts_with(bytes, format.magic, format.magic_size)) {
      return decode_with_stb(bytes, shown.c_str(), format, bounded);
    }
  }
  char first[4 * 8 + 1];
  printable_bytes(bytes.data(), std::min(bytes.size(), size_t(8)), first, sizeof(first));
  set_error_message("image '%s': not a PNG, JPEG, BMP or .npy file (it starts with \"%s\")",
                    shown.c_str(), first);
  return Error::InvalidArgument;
}

Result<Image> load_image(const std::string& path, const ImageLimits& limits) {
  Result<std::vector<uint8_t>> file = read_file(path);
  if (!file.ok()) {
    // read_file's message quotes the path as it is; say it again escaped.
    const PrintableName cause(last_error_message());
    set_error_message("image '%s': %s", PrintableName(path.c_str()).c_str(), cause.c_str());
    return file.error();
  }
  return load_image_from_memory(Span<const uint8_t>(file->data(), file->size()), path.c_str(),
                                limits);
}

// --- resize -------------------------------------------------------------

namespace {

// For each output index along one axis: the first input index it reads and
// its weights (summing to 1), `taps` per output index.
struct AxisWeights {
  std::vector<int64_t> first;
  std::vector<int64_t> count;
  std::vector<float> weights;
  int64_t taps = 0;
};

// The taps of torch's antialiased bilinear (kernels/math/antialias.h, the
// portable _upsample_bilinear2d_aa kernel's) for `in` pixels to `out`.
AxisWeights axis_weights(int32_t in, int32_t out) {
  AxisWeights w;
  const double scale = double(in) / double(out);
  w.taps = math::antialias_max_taps(scale, in);
  w.first.resize(size_t(out));
  w.count.resize(size_t(out));
  w.weights.assign(size_t(out) * size_t(w.taps), 0.0f);
  math::antialias_taps<float>(in, out, scale, w.taps, w.first.data(), w.count.data(),
                              w.weights.data());
  return w;
}

bool image_consistent(const Image& image, const char* what) {
  if (image.channels < 1 || image.height < 1 || image.width < 1) {
    set_error_message("%s: an image of %d channels, %d x %d pixels", what, int(image.channels),
                      int(image.height), int(image.width));
    return false;
  }
  const size_t want = image.numel();
  const bool u8_ok = image.u8.size() == want && image.f32.empty();
  const bool f32_ok = image.f32.size() == want && image.u8.empty();
  if (!u8_ok && !f32_ok) {
    set_error_message("%s: a %d x %d x %d image holds %zu uint8 and %zu float values; exactly "
                      "one of them must hold %zu", what, int(image.channels), int(image.height),
                      int(image.width), image.u8.size(), image.f32.size(), want);
    return false;
  }
  return true;
}

// One channel: rows first (to width), then columns (to height).
void resize_plane(const float* in, int32_t in_h, int32_t in_w, const AxisWeights& across,
                  const AxisWeights& down, int32_t out_h, int32_t out_w, float* scratch,
                  float* out) {
  for (int32_t y = 0; y < in_h; ++y) {
    const float* row = in + size_t(y) * size_t(in_w);
    for (int32_t x = 0; x < out_w; ++x) {
      const float* wt = &across.weights[size_t(x) * size_t(across.taps)];
      const float* src = row + across.first[size_t(x)];
      float sum = 0.0f;
      for (int64_t k = 0; k < across.count[size_t(x)]; ++k) sum += wt[k] * src[k];
      scratch[size_t(y) * size_t(out_w) + size_t(x)] = sum;
    }
  }
  for (int32_t y = 0; y < out_h; ++y) {
    const float* wt = &down.weights[size_t(y) * size_t(down.taps)];
    const float* src = scratch + size_t(down.first[size_t(y)]) * size_t(out_w);
    float* dst = out + size_t(y) * size_t(out_w);
    for (int32_t x = 0; x < out_w; ++x) dst[x] = 0.0f;
    for (int64_t k = 0; k < down.count[size_t(y)]; ++k) {
      const float* line = src + size_t(k) * size_t(out_w);
      for (int32_t x = 0; x < out_w; ++x) dst[x] += wt[k] * line[x];
    }
  }
}

}  // namespace

Result<Image> resize_image(const Image& image, int32_t height, int32_t width) {
  if (!image_consistent(image, "resize_image")) return Error::InvalidArgument;
  if (!size_within(height, width, ImageLimits{}, "resize_image: the output")) {
    return Error::InvalidArgument;
  }
  const AxisWeights across = axis_weights(image.width, width);
  const AxisWeights down = axis_weights(image.height, height);
  Image out;
  out.channels = image.channels;
  out.height = height;
  out.width = width;
  const size_t in_plane = size_t(image.height) * size_t(image.width);
  const size_t out_plane = size_t(height) * size_t(width);
  std::vector<float> in(in_plane), scratch(size_t(image.height) * size_t(width)), result(out_plane);
  if (image.is_float()) out.f32.resize(out.numel()); else out.u8.resize(out.numel());
  for (int32_t c = 0; c < image.channels; ++c) {
    const size_t base = size_t(c) * in_plane;
    if (image.is_float()) {
      std::copy(image.f32.begin() + base, image.f32.begin() + base + in_plane, in.begin());
    } else {
      std::copy(image.u8.begin() + base, image.u8.begin() + base + in_plane, in.begin());
    }
    resize_plane(in.data(), image.height, image.width, across, down, height, width,
                 scratch.data(), result.data());
    const size_t out_base = size_t(c) * out_plane;
    if (image.is_float()) {
      std::copy(result.begin(), result.end(), out.f32.begin() + out_base);
      continue;
    }
    for (size_t i = 0; i < out_plane; ++i) {
      out.u8[out_base + i] = uint8_t(std::clamp(std::floor(result[i] + 0.5f), 0.0f, 255.0f));
    }
  }
  return out;
}

// --- normalize and presets ---------------------------------------------

Result<Image> normalize_image(const Image& image, const float mean[3], const float std[3],
                              float scale) {
  if (!image_consistent(image, "normalize_image")) return Error::InvalidArgument;
  EMBER_CHECK_OR_RETURN(image.channels == 3, Error::InvalidArgument,
                        "normalize_image: the image has %d channels; the mean and std are for 3",
                        int(image.channels));
  EMBER_CHECK_OR_RETURN(std::isfinite(scale), Error::InvalidArgument,
                        "normalize_image: the scale is not finite");
  for (int c = 0; c < 3; ++c) {
    EMBER_CHECK_OR_RETURN(std::isfinite(mean[c]) && std::isfinite(std[c]) && std[c] != 0.0f,
                          Error::InvalidArgument,
                          "normalize_image: channel %d: mean %g, std %g (the mean must be "
                          "finite, the std finite and not zero)", c, double(mean[c]),
                          double(std[c]));
  }
  Image out;
  out.channels = 3;
  out.height = image.height;
  out.width = image.width;
  out.f32.resize(out.numel());
  const size_t plane = size_t(image.height) * size_t(image.width);
  for (int c = 0; c < 3; ++c) {
    const float inv_std = 1.0f / std[c];
    for (size_t i = 0; i < plane; ++i) {
      const size_t at = size_t(c) * plane + i;
      const float v = image.is_float() ? image.f32[at] : float(image.u8[at]);
      out.f32[at] = (v * scale - mean[c]) * inv_std;
    }
  }
  return out;
}

namespace {

// What upstream's example runners (ExecuTorch, examples/models/) do to the
// picture before the vision encoder, one row per runner.
constexpr ImagePreset kImagePresets[] = {
    // llava/main.cpp: the longer side to 336, the other by the same factor,
    // truncated; uint8 CHW handed over as is. The exported image encoder
    // pads to 336 x 336 and applies CLIP's rescale and mean/std itself
    // (llava/model.py, image_preprocess).
    {"llava", ImageResize::kLongestEdge, 0, 0, 336, false, 1.0f, {0, 0, 0}, {1, 1, 1}},
    // gemma3/e2e_runner.cpp: 896 x 896 (its --target_size default), the
    // aspect ratio not kept; float CHW, value / 255, no mean or std.
    // (Hugging Face's Gemma3ImageProcessor would also subtract 0.5 and
    // divide by 0.5; upstream's runner does not, and neither does this.)
    {"gemma3", ImageResize::kExact, 896, 896, 0, true, 1.0f / 255.0f, {0, 0, 0}, {1, 1, 1}},
    // Hugging Face's processors, for the programs optimum-executorch exports
    // (their vision_encoder takes the processor's output): Gemma 3's
    // (SigLIP: value / 255, mean 0.5, std 0.5) and Llava's (CLIP's mean and
    // std), at the encoder's input size (height and width 0: the caller
    // fills them in; Llava's processor would resize the shorter side and
    // crop the centre, this resizes the whole picture).
    {"hf_gemma3", ImageResize::kExact, 0, 0, 0, true, 1.0f / 255.0f, {0.5f, 0.5f, 0.5f},
     {0.5f, 0.5f, 0.5f}},
    {"hf_llava", ImageResize::kExact, 0, 0, 0, true, 1.0f / 255.0f,
     {0.48145466f, 0.4578275f, 0.40821073f}, {0.26862954f, 0.26130258f, 0.27577711f}},
};

}  // namespace

std::string image_preset_names() {
  std::string names;
  for (const ImagePreset& preset : kImagePresets) {
    names += (names.empty() ? "" : ", ") + std::string(preset.name);
  }
  return names;
}

Result<const ImagePreset*> find_image_preset(const std::string& name) {
  for (const ImagePreset& preset : kImagePresets) {
    if (name == preset.name) return &preset;
  }
  set_error_message("unknown image preset '%s' (known: %s)", PrintableName(name.c_str()).c_str(),
                    image_preset_names().c_str());
  return Error::InvalidArgument;
}

void longest_edge_size(int32_t height, int32_t width, int32_t longest, int32_t* out_height,
                       int32_t* out_width) {
  // As upstream's llava runner: the width wins only when strictly longer.
  if (width > height) {
    *out_width = longest;
    *out_height = int32_t(double(height) * longest / width);
  } else {
    *out_height = longest;
    *out_width = int32_t(double(width) * longest / height);
  }
  *out_height = std::max(*out_height, int32_t(1));
  *out_width = std::max(*out_width, int32_t(1));
}

Result<Image> apply_image_preset(const Image& image, const ImagePreset& preset) {
  if (!image_consistent(image, preset.name)) return Error::InvalidArgument;
  EMBER_CHECK_OR_RETURN(!(preset.to_float && image.is_float()), Error::InvalidArgument,
                        "image preset '%s': the image is float already (an .npy file is taken "
                        "as it is); the preset starts from 8-bit pixels", preset.name);
  int32_t height = image.height, width = image.width;
  if (preset.resize == ImageResize::kExact) {
    height = preset.height;
    width = preset.width;
  } else if (preset.resize == ImageResize::kLongestEdge) {
    longest_edge_size(image.height, image.width, preset.longest, &height, &width);
  }
  if (height == image.height && width == image.width) {
    if (!preset.to_float) return Image(image);
    return normalize_image(image, preset.mean, preset.std, preset.scale);
  }
  Result<Image> resized = resize_image(image, height, width);
  if (!resized.ok() || !preset.to_float) return resized;
  return normalize_image(*resized, preset.mean, preset.std, preset.scale);
}

}  // namespace ember::llm
