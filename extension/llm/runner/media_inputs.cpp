#include "extension/llm/runner/media_inputs.h"

#include "extension/llm/runner/audio_features.h"
#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/image_loader.h"
#include "extension/llm/runner/wav_loader.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

bool ends_with(const std::string& text, const char* suffix) {
  const std::string s(suffix);
  return text.size() >= s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0;
}

Result<TensorPtr> to_tensor(Image image) {
  const std::vector<SizesType> sizes{image.channels, image.height, image.width};
  if (image.is_float()) return make_tensor_ptr(sizes, std::move(image.f32));
  return make_tensor_ptr(sizes, std::move(image.u8));
}

// Input 0 of `method`: an image [3, H, W] or [1, 3, H, W].
Result<TensorInfo> image_input(const Module& module, const char* method) {
  Result<TensorInfo> info = method_input(module, method, 0);
  if (!info.ok()) return info.error();
  const size_t rank = info->sizes().size();
  if (rank < 3) {
    set_error_message("method '%s' input 0 has %zu dims; an image is [3, H, W]", method, rank);
    return Error::InvalidArgument;
  }
  return info;
}

// The preset "" stands for: resized to what `method` takes, in its dtype.
Result<Image> prepare_for(const Image& image, const Module& module, const char* method) {
  Result<TensorInfo> info = image_input(module, method);
  if (!info.ok()) return info.error();
  const size_t rank = info->sizes().size();
  Result<Image> resized =
      resize_image(image, info->sizes()[rank - 2], info->sizes()[rank - 1]);
  if (!resized.ok() || info->scalar_type() == ScalarType::Byte) return resized;
  const float mean[3] = {0, 0, 0}, stdev[3] = {1, 1, 1};
  return normalize_image(*resized, mean, stdev, 1.0f / 255.0f);
}

}  // namespace

Result<TensorPtr> load_image_tensor(const std::string& path, const std::string& preset,
                                    const Module& module, const char* method) {
  Result<Image> image = load_image(path);
  if (!image.ok()) return image.error();
  if (ends_with(path, ".npy")) return to_tensor(std::move(*image));
  if (preset.empty()) {
    Result<Image> ready = prepare_for(*image, module, method);
    if (!ready.ok()) return ready.error();
    return to_tensor(std::move(*ready));
  }
  Result<const ImagePreset*> found = find_image_preset(preset);
  if (!found.ok()) return found.error();
  ImagePreset chosen = **found;
  if (chosen.resize == ImageResize::kExact && chosen.height == 0) {
    Result<TensorInfo> info = image_input(module, method);
    if (!info.ok()) return info.error();
    const size_t rank = info->sizes().size();
    chosen.height = info->sizes()[rank - 2];
    chosen.width = info->sizes()[rank - 1];
  }
  Result<Image> ready = apply_image_preset(*image, chosen);
  if (!ready.ok()) return ready.error();
  return to_tensor(std::move(*ready));
}

Result<TensorPtr> load_audio_features(const std::string& path,
                                      const std::string& processor_path) {
  if (ends_with(path, ".npy")) return load_features_npy(path);
  if (processor_path.empty()) {
    set_error_message("%s is a recording: give the preprocessor program (--processor_path) "
                      "that turns it into features, or give features as .npy",
                      PrintableName(path.c_str()).c_str());
    return Error::InvalidArgument;
  }
  Result<AudioSamples> audio = load_audio(path);
  if (!audio.ok()) return audio.error();
  Result<std::unique_ptr<Module>> processor = Module::load(processor_path);
  if (!processor.ok()) return processor.error();
  return preprocess_audio(**processor, std::move(audio->samples));
}

}  // namespace ember::llm
