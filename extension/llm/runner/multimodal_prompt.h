// A multimodal prompt from a text and media: put in the order a model's
// chat format wants, as upstream's example runners do (ember_llm's
// --prompt_format, the Python MultimodalRunner's prompt_format).
#pragma once

#include <string>
#include <vector>

#include "extension/llm/runner/multimodal_input.h"

namespace ember::llm {

// Formats: "gemma3" (upstream's gemma3 runner), "llava" (its llava runner:
// a system preset, the image, the prompt), "voxtral" (its voxtral runner),
// "raw": the prompt as it is, with each "<image>" and "<audio>" in it
// replaced by that medium, or the media first when it has no such marker.
// `media` are the image and audio inputs given (null tensors skipped), in
// the order image, audio. InvalidArgument naming the known formats for
// another name, or when a format's medium is missing.
Result<std::vector<MultimodalInput>> build_multimodal_prompt(const std::string& format,
                                                             const std::string& prompt,
                                                             const TensorPtr& image,
                                                             const TensorPtr& audio);

const char* multimodal_format_names();

}  // namespace ember::llm
