#include "extension/llm/runner/metadata.h"

#include <algorithm>

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

bool has_method(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Result<int64_t> scalar_of(const EValue& v, const char* method) {
  if (v.is_int()) return v.to_int();
  if (v.is_bool()) return int64_t(v.to_bool());
  set_error_message("metadata method '%s' returned a %s, not an integer", method,
                    v.is_tensor() ? "tensor" : v.is_double() ? "double" : "value of another kind");
  return Error::InvalidArgument;
}

// The single integer `method` returns, or `fallback` when the program has
// no such method.
Result<int64_t> read_value(Module& module, const std::vector<std::string>& names,
                           const char* method, int64_t fallback, LlmMetadata* meta) {
  if (!has_method(names, method)) return fallback;
  Result<Outputs> out = module.execute(method);
  if (!out.ok()) return out.error();
  if (out->size() != 1) {
    set_error_message("metadata method '%s' returned %zu values, expected 1", method,
                      out->size());
    return Error::InvalidArgument;
  }
  meta->found.push_back(method);
  return scalar_of((*out)[0], method);
}

Result<std::vector<uint64_t>> read_eos_ids(Module& module, const std::vector<std::string>& names,
                                           const Tokenizer& tokenizer, LlmMetadata* meta) {
  if (!has_method(names, "get_eos_ids")) return std::vector<uint64_t>{tokenizer.eos_tok()};
  Result<Outputs> out = module.execute("get_eos_ids");
  if (!out.ok()) return out.error();
  std::vector<uint64_t> ids;
  for (const EValue& v : *out) {
    Result<int64_t> id = scalar_of(v, "get_eos_ids");
    if (!id.ok()) return id.error();
    ids.push_back(uint64_t(*id));
  }
  meta->found.push_back("get_eos_ids");
  return ids;
}

}  // namespace

Result<std::vector<uint64_t>> read_eos_ids(Module& module, const Tokenizer& tokenizer) {
  LlmMetadata unused;
  const std::vector<std::string> names = module.method_names();
  if (!has_method(names, "get_eos_ids") && has_method(names, "get_eos_id")) {
    Result<int64_t> id = read_value(module, names, "get_eos_id", 0, &unused);
    if (!id.ok()) return id.error();
    return std::vector<uint64_t>{uint64_t(*id)};
  }
  return read_eos_ids(module, names, tokenizer, &unused);
}

Result<LlmMetadata> read_llm_metadata(Module& module, const Tokenizer& tokenizer) {
  const std::vector<std::string> names = module.method_names();
  if (!has_method(names, "get_max_seq_len")) {
    set_error_message("the program has no 'get_max_seq_len' method: export it with upstream's "
                      "LLM exporter, which writes the metadata methods");
    return Error::InvalidArgument;
  }
  LlmMetadata m;
  struct Field {
    const char* method;
    int64_t fallback;
    int64_t value;
  } fields[] = {{"get_max_seq_len", 128, 0},        {"get_max_context_len", -1, 0},
                {"use_kv_cache", 1, 0},              {"use_sdpa_with_kv_cache", 0, 0},
                {"enable_dynamic_shape", 0, 0},      {"get_n_layers", -1, 0}};
  for (Field& f : fields) {
    Result<int64_t> v = read_value(module, names, f.method, f.fallback, &m);
    if (!v.ok()) return v.error();
    f.value = *v;
  }
  m.max_seq_len = fields[0].value;
  m.max_context_len = fields[1].value != -1 ? fields[1].value : m.max_seq_len;
  m.use_kv_cache = fields[2].value != 0;
  m.use_sdpa_with_kv_cache = fields[3].value != 0;
  m.enable_dynamic_shape = fields[4].value != 0;
  m.n_layers = fields[5].value;
  m.bos_id = tokenizer.bos_tok();
  m.vocab_size = int64_t(tokenizer.vocab_size());
  Result<std::vector<uint64_t>> eos = read_eos_ids(module, names, tokenizer, &m);
  if (!eos.ok()) return eos.error();
  m.eos_ids = *eos;
  if (m.max_seq_len <= 0 || m.max_context_len <= 0) {
    set_error_message("metadata: max_seq_len %lld and max_context_len %lld must be positive",
                      (long long)m.max_seq_len, (long long)m.max_context_len);
    return Error::InvalidArgument;
  }
  return m;
}

}  // namespace ember::llm
