// One factory per tokenizer format (each in its own file), called by
// load_tokenizer() once the format is known. `bytes` is the whole file;
// `path` names it in messages. Internal to extension/llm.
#pragma once

#include <memory>
#include <string>

#include "extension/llm/tokenizer/tokenizer.h"

namespace ember::llm {

Result<std::unique_ptr<Tokenizer>> make_sentencepiece_tokenizer(const std::string& bytes,
                                                                const std::string& path);
Result<std::unique_ptr<Tokenizer>> make_llama2c_tokenizer(const std::string& bytes,
                                                          const std::string& path);
Result<std::unique_ptr<Tokenizer>> make_hf_tokenizer(const std::string& bytes,
                                                     const std::string& path);
Result<std::unique_ptr<Tokenizer>> make_tiktoken_tokenizer(const std::string& bytes,
                                                           const std::string& path);

}  // namespace ember::llm
