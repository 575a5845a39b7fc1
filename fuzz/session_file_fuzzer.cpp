// Fuzz target: prompt-cache session files (extension/llm/runner/
// session_file.h), as ember_llm --prompt_cache and
// TextLlmRunner::restore_session read them from a path the user gives.
// The input is the file. It is restored into the tiny legacy Llama
// (test/models/llm/tiny_llama_legacy.pte, loaded once), so parse_session()
// checks it against a real program's layout; a file it accepts is copied
// into the KV caches, and the conversation goes on from there for one
// token. Seeds: test/models/llm/sessions (one session of each tiny program;
// the other program's fails at the identity, past every structural check).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "extension/llm/runner/text_llm_runner.h"
#include "extension/llm/tokenizer/tokenizer.h"

namespace {

using ember::llm::TextLlmRunner;

TextLlmRunner* runner() {
  static std::unique_ptr<TextLlmRunner> r = [] {
    const std::string dir = std::string(EMBER_TEST_MODELS_DIR) + "/llm/";
    auto tokenizer = ember::llm::load_tokenizer(dir + "tiny_llm_tokenizer.model");
    if (!tokenizer.ok()) __builtin_trap();
    auto made = TextLlmRunner::create(dir + "tiny_llama_legacy.pte", {}, std::move(*tokenizer));
    if (!made.ok() || (*made)->load() != ember::Error::Ok) __builtin_trap();
    return std::move(*made);
  }();
  return r.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TextLlmRunner* r = runner();
  if (r->restore_session(ember::Span<const uint8_t>(data, size)) != ember::Error::Ok) return 0;
  // A restored session must be usable: the position is the file's token
  // count, within the context, and generation continues (or says the
  // prompt does not fit what is left).
  if (r->position() < 0 || r->position() > r->metadata().max_context_len) __builtin_trap();
  ember::llm::GenerationConfig config;
  config.echo = false;
  config.temperature = 0;
  config.max_new_tokens = 1;
  (void)r->generate("fox", config);
  return 0;
}
