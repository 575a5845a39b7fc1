// Media files for the multimodal and speech runners: an image file or .npy
// as the tensor a program's vision_encoder takes, and a recording (.wav,
// raw float32 .bin) or features (.npy) as what its audio encoder takes.
#pragma once

#include <string>

#include "extension/module/module.h"
#include "extension/tensor/tensor_ptr.h"

namespace ember::llm {

// `path` read as an image (image_loader.h) and prepared for input 0 of
// `module`'s `method`: with `preset` ("" : resized to the input's height and
// width, and divided by 255 when it takes floats) as that preset says; an
// .npy array as it is. The tensor is [3, H, W] (the runner adds a batch dim
// when the encoder takes one).
Result<TensorPtr> load_image_tensor(const std::string& path, const std::string& preset,
                                    const Module& module, const char* method);

// Features for an audio encoder: an .npy array as it is; a .wav or .bin
// recording through the preprocessor program at `processor_path` (required
// for those: InvalidArgument says so).
Result<TensorPtr> load_audio_features(const std::string& path, const std::string& processor_path);

}  // namespace ember::llm
