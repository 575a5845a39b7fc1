#include "extension/llm/runner/multimodal_prompt.h"

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

using Pieces = std::vector<MultimodalInput>;

// "raw": the prompt split at <image> and <audio>.
Pieces raw_pieces(const std::string& prompt, const TensorPtr& image, const TensorPtr& audio) {
  Pieces pieces;
  const bool marked = prompt.find("<image>") != std::string::npos ||
                      prompt.find("<audio>") != std::string::npos;
  if (!marked) {
    if (image != nullptr) pieces.push_back(MultimodalInput::from_image(image));
    if (audio != nullptr) pieces.push_back(MultimodalInput::from_audio(audio));
    if (!prompt.empty()) pieces.push_back(MultimodalInput::from_text(prompt));
    return pieces;
  }
  size_t at = 0;
  while (at < prompt.size()) {
    const size_t img = prompt.find("<image>", at), aud = prompt.find("<audio>", at);
    const size_t next = std::min(img, aud);
    if (next != at) pieces.push_back(MultimodalInput::from_text(prompt.substr(at, next - at)));
    if (next == std::string::npos) break;
    pieces.push_back(next == img ? MultimodalInput::from_image(image)
                                 : MultimodalInput::from_audio(audio));
    at = next + 7;  // both markers are 7 characters
  }
  return pieces;
}

}  // namespace

const char* multimodal_format_names() { return "raw, gemma3, llava, voxtral"; }

Result<std::vector<MultimodalInput>> build_multimodal_prompt(const std::string& format,
                                                             const std::string& prompt,
                                                             const TensorPtr& image,
                                                             const TensorPtr& audio) {
  const bool wants_image = format == "gemma3" || format == "llava";
  const bool wants_audio = format == "voxtral";
  if (format != "raw" && !wants_image && !wants_audio) {
    set_error_message("unknown prompt format '%s' (known: %s)",
                      PrintableName(format.c_str()).c_str(),
                      multimodal_format_names());
    return Error::InvalidArgument;
  }
  if ((wants_image && image == nullptr) || (wants_audio && audio == nullptr)) {
    set_error_message("prompt format '%s' needs %s", format.c_str(),
                      wants_image ? "an image (--image_path)" : "audio (--audio_path)");
    return Error::InvalidArgument;
  }
  if (format == "gemma3") {
    return Pieces{MultimodalInput::from_text("<start_of_turn>user\n<start_of_image>"),
                  MultimodalInput::from_image(image),
                  MultimodalInput::from_text(prompt + "<end_of_turn>\n<start_of_turn>model\n")};
  }
  if (format == "llava") {
    return Pieces{MultimodalInput::from_text(
                      "A chat between a curious human and an artificial intelligence assistant. "
                      "The assistant gives helpful, detailed, and polite answers to the human's "
                      "questions. USER: "),
                  MultimodalInput::from_image(image), MultimodalInput::from_text(prompt)};
  }
  if (format == "voxtral") {
    return Pieces{MultimodalInput::from_text("<s>[INST][BEGIN_AUDIO]"),
                  MultimodalInput::from_audio(audio),
                  MultimodalInput::from_text(prompt + "[/INST]")};
  }
  Pieces pieces = raw_pieces(prompt, image, audio);
  for (const MultimodalInput& p : pieces) {
    if (p.kind != MultimodalInput::Kind::kText && p.tensor == nullptr) {
      set_error_message("the prompt has an <%s> marker and no --%s_path was given",
                        input_kind_name(p.kind), input_kind_name(p.kind));
      return Error::InvalidArgument;
    }
  }
  return pieces;
}

}  // namespace ember::llm
