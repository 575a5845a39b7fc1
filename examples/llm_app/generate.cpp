// Sample: an LLM application built against the installed package; read it and copy it.
// ember_generate: greedy text generation with TextLlmRunner on an installed Ember.
//
//   ember_generate MODEL TOKENIZER PROMPT [MAX_NEW_TOKENS]
//
// Loads MODEL (a .pte that upstream's export_llama or export_llm wrote)
// and TOKENIZER (any format load_tokenizer() reads), puts one BOS token in
// front of PROMPT and generates at most MAX_NEW_TOKENS (default 16) tokens
// greedily (temperature 0), streaming the text to stdout, then prints the
// token ids as ember_llm --print_token_ids does:
//
//   prompt_ids: 1 350 396 ...
//   generated_ids: 471 459 ...
//
// The test in test/package compares them with upstream's greedy ids.
//
// Exit status 0 on success, 1 with one "error: ..." line on stderr.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extension/llm/runner/text_llm_runner.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "runtime/core/error_message.h"

namespace {

int fail(const char* what, ember::Error e) {
  std::fprintf(stderr, "error: %s: %s (%s)\n", what, ember::error_name(e),
               ember::last_error_message());
  return 1;
}

void print_ids(const char* label, const std::vector<uint64_t>& ids) {
  std::printf("%s:", label);
  for (uint64_t id : ids) std::printf(" %llu", static_cast<unsigned long long>(id));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: %s MODEL TOKENIZER PROMPT [MAX_NEW_TOKENS]\n", argv[0]);
    return 1;
  }
  int32_t max_new_tokens = 16;
  if (argc == 5) {
    char* end = nullptr;
    const long n = std::strtol(argv[4], &end, 10);
    if (end == argv[4] || *end != '\0' || n < 1 || n > 1 << 20) {
      std::fprintf(stderr, "error: MAX_NEW_TOKENS must be a positive number, got \"%s\"\n",
                   argv[4]);
      return 1;
    }
    max_new_tokens = int32_t(n);
  }

  auto tokenizer = ember::llm::load_tokenizer(argv[2]);
  if (!tokenizer.ok()) return fail("loading the tokenizer", tokenizer.error());
  auto runner = ember::llm::TextLlmRunner::create(argv[1], {}, std::move(*tokenizer));
  if (!runner.ok()) return fail("loading the model", runner.error());

  ember::llm::GenerationConfig config;
  config.temperature = 0;  // greedy: the same ids on every run
  config.num_bos = 1;      // Llama-style programs expect a BOS first
  config.max_new_tokens = max_new_tokens;
  const ember::Error err = (*runner)->generate(argv[3], config, [](const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  });
  std::printf("\n");
  if (err != ember::Error::Ok) return fail("generating", err);
  print_ids("prompt_ids", (*runner)->last_prompt_ids());
  print_ids("generated_ids", (*runner)->last_generated_ids());
  return 0;
}
