// What the exported program says about itself through the metadata methods
// upstream's exporter writes (get_max_seq_len, get_max_context_len,
// get_bos_id, get_eos_ids, get_vocab_size, get_n_layers, use_kv_cache,
// use_sdpa_with_kv_cache, enable_dynamic_shape), with upstream's defaults
// where one is missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/module/module.h"

namespace ember::llm {

struct LlmMetadata {
  int64_t max_seq_len = 128;      // tokens one forward call takes at most
  int64_t max_context_len = 128;  // KV-cache positions (max_seq_len when absent)
  bool use_kv_cache = true;
  bool use_sdpa_with_kv_cache = false;
  bool enable_dynamic_shape = false;  // prefill takes many tokens at once
  int64_t n_layers = -1;              // -1: not stated
  uint64_t bos_id = 0;                // the tokenizer's
  int64_t vocab_size = 0;             // the tokenizer's
  std::vector<uint64_t> eos_ids;      // get_eos_ids, else the tokenizer's EOS
  // Which methods were present (for the log and tests).
  std::vector<std::string> found;
};

// Runs each metadata method the program has. InvalidArgument when
// get_max_seq_len is missing (upstream requires it: it cannot be told from
// the program otherwise) or a method returns something that is not an
// integer or bool; the message names the method.
Result<LlmMetadata> read_llm_metadata(Module& module, const Tokenizer& tokenizer);

// The EOS ids alone (for programs without the other methods, such as a
// speech recognizer's): get_eos_ids when the program has it, else
// get_eos_id (optimum-executorch's single id), else the tokenizer's EOS.
Result<std::vector<uint64_t>> read_eos_ids(Module& module, const Tokenizer& tokenizer);

}  // namespace ember::llm
