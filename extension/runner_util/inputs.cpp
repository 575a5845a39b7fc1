#include "extension/runner_util/inputs.h"

#include <cinttypes>
#include <cstdlib>
#include <cstring>

#include "runtime/core/error_message.h"

namespace ember {

struct InputBuffers::Owned {
  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
  std::unique_ptr<uint8_t, void (*)(void*)> data{nullptr, std::free};
  std::unique_ptr<TensorImpl> impl;
};

InputBuffers::InputBuffers() = default;
InputBuffers::~InputBuffers() = default;
InputBuffers::InputBuffers(InputBuffers&&) noexcept = default;
InputBuffers& InputBuffers::operator=(InputBuffers&&) noexcept = default;

namespace {

template <typename T>
void fill_as(void* data, int64_t n, double value) {
  T* p = static_cast<T*>(data);
  for (int64_t i = 0; i < n; ++i) p[i] = T(float(value));
}

template <typename T>
void fill_int(void* data, int64_t n, double value) {
  T* p = static_cast<T*>(data);
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(value);
}

void fill(ScalarType type, void* data, int64_t n, double value) {
  switch (type) {
    case ScalarType::Float: fill_int<float>(data, n, value); break;
    case ScalarType::Double: fill_int<double>(data, n, value); break;
    case ScalarType::Half: fill_as<Half>(data, n, value); break;
    case ScalarType::BFloat16: fill_as<BFloat16>(data, n, value); break;
    case ScalarType::Long: fill_int<int64_t>(data, n, value); break;
    case ScalarType::Int: fill_int<int32_t>(data, n, value); break;
    case ScalarType::Short: fill_int<int16_t>(data, n, value); break;
    case ScalarType::Char: fill_int<int8_t>(data, n, value); break;
    case ScalarType::Byte: fill_int<uint8_t>(data, n, value); break;
    case ScalarType::Bool: fill_int<bool>(data, n, value != 0.0); break;
    default: std::memset(data, 0, size_t(n) * element_size(type)); break;
  }
}

}  // namespace

Result<Tensor> InputBuffers::make_filled(const TensorInfo& info, double value) {
  auto owned = std::make_unique<Owned>();
  owned->sizes.assign(info.sizes().begin(), info.sizes().end());
  if (info.dim_order().size() == info.sizes().size()) {
    owned->dim_order.assign(info.dim_order().begin(), info.dim_order().end());
  } else {
    for (size_t i = 0; i < owned->sizes.size(); ++i) owned->dim_order.push_back(DimOrderType(i));
  }
  owned->strides.resize(owned->sizes.size());
  // Sizes come from the program: allocation failure is an Error.
  owned->data.reset(static_cast<uint8_t*>(std::malloc(info.nbytes() + 1)));
  EMBER_CHECK_OR_RETURN(owned->data != nullptr, Error::MemoryAllocationFailed,
                        "cannot allocate an input of %zu bytes", info.nbytes());
  int64_t numel = 1;
  for (SizesType s : owned->sizes) numel *= s;
  fill(info.scalar_type(), owned->data.get(), numel, value);
  owned->impl = std::make_unique<TensorImpl>(
      info.scalar_type(), owned->sizes.size(), owned->sizes.data(), owned->data.get(),
      owned->dim_order.data(), owned->strides.data(), ShapeDynamism::Static);
  Tensor t(owned->impl.get());
  owned_.push_back(std::move(owned));
  return t;
}

Result<InputBuffers> prepare_input_tensors(Method& method, double fill_value) {
  InputBuffers buffers;
  const MethodMeta meta = method.method_meta();
  for (size_t i = 0; i < method.inputs_size(); ++i) {
    Result<Tag> tag = meta.input_tag(i);
    if (!tag.ok()) return tag.error();
    if (*tag != Tag::Tensor) {
      // Scalars keep their exported value; mark the input as set.
      EMBER_RETURN_IF_ERROR(method.set_input(method.get_input(i), i));
      continue;
    }
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (!info.ok()) return info.error();
    Result<Tensor> t = buffers.make_filled(*info, fill_value);
    if (!t.ok()) return t.error();
    EMBER_RETURN_IF_ERROR(method.set_input(EValue(*t), i));
  }
  return buffers;
}

double element_as_double(const Tensor& t, int64_t i) {
  const void* d = t.const_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Float: return static_cast<const float*>(d)[i];
    case ScalarType::Double: return static_cast<const double*>(d)[i];
    case ScalarType::Half: return float(static_cast<const Half*>(d)[i]);
    case ScalarType::BFloat16: return float(static_cast<const BFloat16*>(d)[i]);
    case ScalarType::Long: return double(static_cast<const int64_t*>(d)[i]);
    case ScalarType::Int: return static_cast<const int32_t*>(d)[i];
    case ScalarType::Short: return static_cast<const int16_t*>(d)[i];
    case ScalarType::Char: return static_cast<const int8_t*>(d)[i];
    case ScalarType::Byte: return static_cast<const uint8_t*>(d)[i];
    case ScalarType::Bool: return static_cast<const bool*>(d)[i] ? 1.0 : 0.0;
    case ScalarType::UInt16: return static_cast<const uint16_t*>(d)[i];
    case ScalarType::UInt32: return static_cast<const uint32_t*>(d)[i];
    case ScalarType::UInt64: return double(static_cast<const uint64_t*>(d)[i]);
    default: return 0.0;
  }
}

void print_evalue(const EValue& value, FILE* out, size_t max_elements) {
  switch (value.tag()) {
    case Tag::Tensor: {
      const Tensor t = value.to_tensor();
      fprintf(out, "tensor(%s, sizes=[", scalar_type_name(t.scalar_type()));
      for (size_t d = 0; d < t.dim(); ++d) {
        fprintf(out, "%s%d", d ? ", " : "", int(t.sizes()[d]));
      }
      fprintf(out, "]) [");
      const int64_t n = t.numel();
      const bool have_data = t.const_data_ptr() != nullptr;
      for (int64_t i = 0; have_data && i < n && size_t(i) < max_elements; ++i) {
        fprintf(out, "%s%g", i ? ", " : "", element_as_double(t, i));
      }
      if (size_t(n) > max_elements) fprintf(out, ", ... (%" PRId64 " elements)", n);
      fprintf(out, "]");
      break;
    }
    case Tag::Int: fprintf(out, "int %" PRId64, value.to_int()); break;
    case Tag::Double: fprintf(out, "double %g", value.to_double()); break;
    case Tag::Bool: fprintf(out, "bool %s", value.to_bool() ? "true" : "false"); break;
    default: fprintf(out, "%s", tag_name(value.tag())); break;
  }
}

void print_outputs(const Method& method, FILE* out, size_t max_elements) {
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    fprintf(out, "Output %zu: ", i);
    print_evalue(method.get_output(i), out, max_elements);
    fprintf(out, "\n");
  }
}

}  // namespace ember
