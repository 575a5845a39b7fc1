// One piece of a multimodal prompt, as upstream's MultimodalInput: text
// (encoded by the runner's tokenizer), token ids, an image, or audio
// features. A prompt is a sequence of pieces, run into the KV cache in
// order (MultimodalRunner).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "extension/tensor/tensor_ptr.h"

namespace ember::llm {

struct MultimodalInput {
  enum class Kind { kText, kTokens, kImage, kAudio };

  Kind kind = Kind::kText;
  std::string text;             // kText
  std::vector<uint64_t> tokens; // kTokens
  // kImage: [3, H, W] or [1, 3, H, W], Byte or Float, as the program's
  // vision_encoder takes it (already resized and normalized: image_loader.h).
  // kAudio: features [batch, bins, frames] (Float), as the audio_encoder
  // takes them (a preprocessor program's output, or an .npy file).
  TensorPtr tensor;

  static MultimodalInput from_text(std::string text) {
    MultimodalInput in;
    in.kind = Kind::kText;
    in.text = std::move(text);
    return in;
  }
  static MultimodalInput from_tokens(std::vector<uint64_t> ids) {
    MultimodalInput in;
    in.kind = Kind::kTokens;
    in.tokens = std::move(ids);
    return in;
  }
  static MultimodalInput from_image(TensorPtr image) {
    MultimodalInput in;
    in.kind = Kind::kImage;
    in.tensor = std::move(image);
    return in;
  }
  static MultimodalInput from_audio(TensorPtr features) {
    MultimodalInput in;
    in.kind = Kind::kAudio;
    in.tensor = std::move(features);
    return in;
  }
};

// "text", "tokens", "image" or "audio".
const char* input_kind_name(MultimodalInput::Kind kind);

}  // namespace ember::llm
