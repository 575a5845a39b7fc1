#include "extension/llm/runner/decoder_io.h"

#include <algorithm>

#include "runtime/core/error_message.h"
#include "runtime/core/half.h"

namespace ember::llm {
namespace {

template <typename T>
void widen(const T* p, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = float(p[i]);
}

}  // namespace

Result<TensorPtr> adapt_tensor(const TensorPtr& given, size_t rank, ScalarType type,
                               const char* method) {
  std::vector<SizesType> sizes(given->sizes().begin(), given->sizes().end());
  if (sizes.size() + 1 == rank) {
    sizes.insert(sizes.begin(), 1);
  } else if (sizes.size() == rank + 1 && sizes[0] == 1) {
    sizes.erase(sizes.begin());
  } else if (sizes.size() != rank) {
    set_error_message("method '%s' takes a %zu-d input; a %zu-d tensor was given", method, rank,
                      given->sizes().size());
    return Error::InvalidArgument;
  }
  const ScalarType from = given->scalar_type();
  if (from == type) {
    TensorPtr keep = given;  // the view holds the original alive
    return from_blob(given->mutable_data_ptr(), sizes, type, [keep](void*) {});
  }
  const size_t n = size_t(given->numel());
  if (from == ScalarType::Float && type == ScalarType::BFloat16) {
    std::vector<BFloat16> out(n);
    const float* p = given->const_data_ptr<float>();
    for (size_t i = 0; i < n; ++i) out[i] = BFloat16(p[i]);
    return make_tensor_ptr(sizes, std::move(out));
  }
  if (from == ScalarType::Float && type == ScalarType::Half) {
    std::vector<Half> out(n);
    const float* p = given->const_data_ptr<float>();
    for (size_t i = 0; i < n; ++i) out[i] = Half(p[i]);
    return make_tensor_ptr(sizes, std::move(out));
  }
  set_error_message("method '%s' takes %s input; %s was given%s", method, scalar_type_name(type),
                    scalar_type_name(from),
                    from == ScalarType::Byte ? " (normalize the image to float first)" : "");
  return Error::InvalidArgument;
}

bool has_method(const Module& module, const char* name) {
  const std::vector<std::string> names = module.method_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

Result<std::unique_ptr<Module>> open_program(const std::string& path,
                                             const std::vector<std::string>& data_paths,
                                             std::initializer_list<const char*> required,
                                             const char* what) {
  Result<std::unique_ptr<Module>> module = Module::load(path, data_paths);
  if (!module.ok()) return module.error();
  // As TextLlmRunner: activations and caches mapped at load, not during
  // the first prompt.
  (*module)->set_prefault_planned_memory(true);
  for (const char* name : required) {
    if (!has_method(**module, name)) {
      set_error_message("%s has no '%s' method: %s", PrintableName(path.c_str()).c_str(), name,
                        what);
      return Error::InvalidArgument;
    }
  }
  return module;
}

Error load_present_methods(Module& module, std::initializer_list<const char*> methods) {
  for (const char* name : methods) {
    if (has_method(module, name)) EMBER_RETURN_IF_ERROR(module.load_method(name));
  }
  return Error::Ok;
}

Result<TensorInfo> method_input(const Module& module, const char* method, size_t index) {
  Result<MethodMeta> meta = module.method_meta(method);
  if (!meta.ok()) return meta.error();
  if (meta->num_inputs() <= index) {
    set_error_message("method '%s' takes %zu inputs; input %zu was asked for", method,
                      meta->num_inputs(), index);
    return Error::InvalidArgument;
  }
  return meta->input_tensor_meta(index);
}

std::vector<int64_t> position_values(bool per_token, int64_t start, size_t count) {
  std::vector<int64_t> values;
  const size_t n = per_token ? count : 1;
  for (size_t i = 0; i < n; ++i) values.push_back(start + int64_t(i));
  return values;
}

Error last_logits_row(const TensorPtr& logits, const char* method, std::vector<float>* row) {
  if (logits == nullptr || logits->dim() < 1) {
    set_error_message("method '%s' returned no logits tensor", method);
    return Error::InvalidArgument;
  }
  const int64_t vocab = logits->size(logits->dim() - 1);
  const int64_t rows = vocab > 0 ? logits->numel() / vocab : 0;
  if (rows < 1) {
    set_error_message("method '%s' returned empty logits", method);
    return Error::InvalidArgument;
  }
  row->resize(size_t(vocab));
  const int64_t last = (rows - 1) * vocab;
  switch (logits->scalar_type()) {
    case ScalarType::Float:
      widen(logits->const_data_ptr<float>() + last, vocab, row->data());
      return Error::Ok;
    case ScalarType::Half:
      widen(logits->const_data_ptr<Half>() + last, vocab, row->data());
      return Error::Ok;
    case ScalarType::BFloat16:
      widen(logits->const_data_ptr<BFloat16>() + last, vocab, row->data());
      return Error::Ok;
    default:
      set_error_message("method '%s' returned %s logits; Float, Half or BFloat16 expected",
                        method, scalar_type_name(logits->scalar_type()));
      return Error::InvalidArgument;
  }
}

}  // namespace ember::llm
