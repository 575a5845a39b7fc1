// ember_llm's multimodal mode (--image_path / --audio_path).
#pragma once

#include <string>
#include <vector>

#include "extension/llm/runner/generation_config.h"

namespace ember::llm {

// Whether `model_path` is a multimodal program for ember_llm: it has
// token_embedding and text_decoder and no `method` (the text runner's
// method); false when it cannot be opened (the text path reports that).
bool is_multimodal_program(const std::string& model_path, const std::string& method);

// Generates from `prompt` and the media the flags name with `config`
// (ember_llm's; the context trim's fields do not apply); the exit status.
int run_multimodal(const std::string& prompt, const std::vector<std::string>& data_paths,
                   const GenerationConfig& config);

}  // namespace ember::llm
