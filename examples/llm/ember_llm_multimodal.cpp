// ember_llm with --image_path or --audio_path: a multimodal program
// (token_embedding, text_decoder and a vision or audio encoder) through
// MultimodalRunner. The flags are ember_llm's (ember_llm.cpp).
#include "examples/llm/ember_llm_multimodal.h"

#include <gflags/gflags.h>

#include <cstdio>

#include "examples/llm/llm_cli.h"
#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/media_inputs.h"
#include "extension/llm/runner/multimodal_prompt.h"
#include "extension/llm/runner/multimodal_runner.h"
#include "runtime/core/error_message.h"

DECLARE_string(model_path);
DECLARE_string(tokenizer_path);
DECLARE_string(image_path);
DECLARE_string(image_preset);
DECLARE_string(audio_path);
DECLARE_string(processor_path);
DECLARE_string(prompt_format);
DECLARE_bool(print_token_ids);

namespace ember::llm {
using cli::fail;
using cli::print_ids;

bool is_multimodal_program(const std::string& model_path, const std::string& method) {
  auto module = Module::load(model_path);
  if (!module.ok()) return false;
  return has_method(**module, MultimodalRunner::kTokenEmbedding) &&
         has_method(**module, MultimodalRunner::kTextDecoder) &&
         !has_method(**module, method.c_str());
}

int run_multimodal(const std::string& prompt, const std::vector<std::string>& data_paths,
                   const GenerationConfig& config) {
  auto tokenizer = load_tokenizer(FLAGS_tokenizer_path);
  if (!tokenizer.ok()) return fail("loading the tokenizer");
  auto runner = MultimodalRunner::create(FLAGS_model_path, data_paths, std::move(*tokenizer));
  if (!runner.ok()) return fail("loading the model");
  TensorPtr image, audio;
  if (!FLAGS_image_path.empty()) {
    auto t = load_image_tensor(FLAGS_image_path, FLAGS_image_preset, (*runner)->module(),
                               MultimodalRunner::kVisionEncoder);
    if (!t.ok()) return fail("--image_path");
    image = *t;
  }
  if (!FLAGS_audio_path.empty()) {
    auto t = load_audio_features(FLAGS_audio_path, FLAGS_processor_path);
    if (!t.ok()) return fail("--audio_path");
    audio = *t;
  }
  auto pieces = build_multimodal_prompt(FLAGS_prompt_format, prompt, image, audio);
  if (!pieces.ok()) return fail("--prompt_format");
  const Error err = (*runner)->generate(*pieces, config, [](const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  });
  std::printf("\n");
  if (err != Error::Ok) return fail("generating");
  if (FLAGS_print_token_ids) {
    print_ids("prompt_ids", (*runner)->last_prompt_ids());
    print_ids("generated_ids", (*runner)->last_generated_ids());
  }
  cli::print_stats((*runner)->stats());
  return 0;
}

}  // namespace ember::llm
