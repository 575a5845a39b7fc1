#include "examples/executor_runner/runner_inputs.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "extension/file_util/read_file.h"
#include "extension/npy/npy.h"
#include "runtime/core/error_message.h"

namespace ember::runner {

struct CommandLineInputs::Held {
  NpyArray array;
  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
  std::unique_ptr<TensorImpl> impl;
};

CommandLineInputs::CommandLineInputs() = default;
CommandLineInputs::~CommandLineInputs() = default;
CommandLineInputs::CommandLineInputs(CommandLineInputs&&) noexcept = default;

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> parts;
  if (s.empty()) return parts;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

std::string shape_string(Span<const SizesType> s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

Error check_shape(const TensorInfo& info, const NpyArray& a, size_t index,
                  const std::string& item) {
  const Span<const SizesType> want = info.sizes();
  const Span<const SizesType> got(a.shape.data(), a.shape.size());
  EMBER_CHECK_OR_RETURN(a.dtype == info.scalar_type(), Error::InvalidArgument,
                        "input %zu ('%s'): dtype %s, the method expects %s", index,
                        item.c_str(), scalar_type_name(a.dtype),
                        scalar_type_name(info.scalar_type()));
  const bool bounded = info.shape_dynamism() != ShapeDynamism::Static;
  bool ok = got.size() == want.size();
  for (size_t d = 0; ok && d < got.size(); ++d) {
    ok = bounded ? got[d] <= want[d] : got[d] == want[d];
  }
  EMBER_CHECK_OR_RETURN(ok, Error::InvalidArgument,
                        "input %zu ('%s'): shape %s, the method expects %s%s", index,
                        item.c_str(), shape_string(got).c_str(),
                        bounded ? "at most " : "", shape_string(want).c_str());
  return Error::Ok;
}

Result<NpyArray> read_bin(const TensorInfo& info, size_t index, const std::string& item) {
  Result<std::vector<uint8_t>> read = read_file(item);
  if (!read.ok()) {
    append_error_message(" (input %zu)", index);
    return read.error();
  }
  std::vector<uint8_t>& bytes = *read;
  EMBER_CHECK_OR_RETURN(bytes.size() == info.nbytes(), Error::InvalidArgument,
                        "input %zu ('%s'): %zu bytes, the method's %s %s input needs "
                        "%zu",
                        index, item.c_str(), bytes.size(),
                        scalar_type_name(info.scalar_type()),
                        shape_string(info.sizes()).c_str(), info.nbytes());
  if (info.scalar_type() == ScalarType::Bool) {
    for (size_t k = 0; k < bytes.size(); ++k) {
      EMBER_CHECK_OR_RETURN(bytes[k] <= 1, Error::InvalidArgument,
                            "input %zu ('%s'): Bool byte %zu is %u, not 0 or 1", index,
                            item.c_str(), k, unsigned(bytes[k]));
    }
  }
  NpyArray a;
  a.dtype = info.scalar_type();
  a.shape.assign(info.sizes().begin(), info.sizes().end());
  a.data = std::move(bytes);
  return a;
}

Result<EValue> parse_scalar(Tag tag, size_t index, const std::string& item) {
  if (ends_with(item, ".npy")) {
    Result<NpyArray> a = read_npy(item);
    if (!a.ok()) {
      prefix_error_message(error_name(a.error()), "input %zu", index);
      return a.error();
    }
    const ScalarType want = tag == Tag::Int    ? ScalarType::Long
                            : tag == Tag::Bool ? ScalarType::Bool
                                               : ScalarType::Double;
    EMBER_CHECK_OR_RETURN(a->shape.empty() && a->dtype == want, Error::InvalidArgument,
                          "input %zu ('%s'): the method expects a %s scalar: a 0-d %s "
                          ".npy",
                          index, item.c_str(), tag_name(tag), scalar_type_name(want));
    if (tag == Tag::Int) return EValue(*a->as<int64_t>());
    if (tag == Tag::Bool) return EValue(*a->as<bool>());
    return EValue(*a->as<double>());
  }
  char* end = nullptr;
  errno = 0;
  if (tag == Tag::Bool) {
    EMBER_CHECK_OR_RETURN(item == "true" || item == "false" || item == "1" || item == "0",
                          Error::InvalidArgument,
                          "input %zu: '%s' is not a bool (true or false)", index,
                          item.c_str());
    return EValue(item == "true" || item == "1");
  }
  if (tag == Tag::Int) {
    const long long v = strtoll(item.c_str(), &end, 10);
    EMBER_CHECK_OR_RETURN(!item.empty() && *end == '\0' && errno == 0,
                          Error::InvalidArgument, "input %zu: '%s' is not an integer",
                          index, item.c_str());
    return EValue(int64_t(v));
  }
  const double v = strtod(item.c_str(), &end);
  EMBER_CHECK_OR_RETURN(!item.empty() && *end == '\0', Error::InvalidArgument,
                        "input %zu: '%s' is not a number", index, item.c_str());
  return EValue(v);
}

}  // namespace

Error CommandLineInputs::reapply(Method& method) const {
  for (size_t i = 0; i < values_.size(); ++i) {
    EMBER_RETURN_IF_ERROR(method.set_input(values_[i], i));
  }
  return Error::Ok;
}

Error CommandLineInputs::set(Method& method, const std::vector<std::string>& items) {
  values_.clear();
  const MethodMeta meta = method.method_meta();
  EMBER_CHECK_OR_RETURN(items.size() == meta.num_inputs(), Error::InvalidArgument,
                        "--inputs has %zu item%s, method '%s' takes %zu input%s",
                        items.size(), items.size() == 1 ? "" : "s", method.name(),
                        meta.num_inputs(), meta.num_inputs() == 1 ? "" : "s");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string& item = items[i];
    Result<Tag> tag = meta.input_tag(i);
    if (!tag.ok()) return tag.error();
    if (*tag == Tag::Int || *tag == Tag::Bool || *tag == Tag::Double) {
      Result<EValue> v = parse_scalar(*tag, i, item);
      if (!v.ok()) return v.error();
      EMBER_RETURN_IF_ERROR(method.set_input(*v, i));
      values_.push_back(*v);
      continue;
    }
    EMBER_CHECK_OR_RETURN(*tag == Tag::Tensor, Error::NotSupported,
                          "input %zu: %s inputs cannot be given on the command line", i,
                          tag_name(*tag));
    Result<TensorInfo> info = meta.input_tensor_meta(i);
    if (!info.ok()) return info.error();
    auto held = std::make_unique<Held>();
    if (ends_with(item, ".npy")) {
      Result<NpyArray> a = read_npy(item);
      if (!a.ok()) {
        prefix_error_message(error_name(a.error()), "input %zu", i);
        return a.error();
      }
      EMBER_RETURN_IF_ERROR(check_shape(*info, *a, i, item));
      held->array = std::move(*a);
    } else if (ends_with(item, ".bin")) {
      Result<NpyArray> a = read_bin(*info, i, item);
      if (!a.ok()) return a.error();
      held->array = std::move(*a);
    } else {
      set_error_message("input %zu: '%s' is not a .npy or .bin file (the method expects "
                        "a tensor)",
                        i, item.c_str());
      return Error::InvalidArgument;
    }
    held->sizes = held->array.shape;
    held->dim_order.assign(info->dim_order().begin(), info->dim_order().end());
    if (held->dim_order.size() != held->sizes.size()) {
      held->dim_order.clear();
      for (size_t d = 0; d < held->sizes.size(); ++d) held->dim_order.push_back(DimOrderType(d));
    }
    held->strides.resize(held->sizes.size());
    held->impl = std::make_unique<TensorImpl>(
        held->array.dtype, held->sizes.size(), held->sizes.data(),
        held->array.data.data(), held->dim_order.data(), held->strides.data());
    const Error err = method.set_input(EValue(Tensor(held->impl.get())), i);
    values_.push_back(EValue(Tensor(held->impl.get())));
    held_.push_back(std::move(held));
    EMBER_RETURN_IF_ERROR(err);
  }
  return Error::Ok;
}

Error write_output_npy(const Method& method, size_t index, const std::string& path) {
  const EValue& v = method.get_output(index);
  if (v.is_tensor()) {
    return write_npy(path, v.to_tensor());
  }
  std::vector<uint8_t> bytes;
  if (v.is_int()) {
    const int64_t x = v.to_int();
    bytes = to_npy(ScalarType::Long, {}, &x);
  } else if (v.is_double()) {
    const double x = v.to_double();
    bytes = to_npy(ScalarType::Double, {}, &x);
  } else if (v.is_bool()) {
    const bool x = v.to_bool();
    bytes = to_npy(ScalarType::Bool, {}, &x);
  } else {
    set_error_message("output %zu is a %s, which cannot be written as .npy", index,
                      tag_name(v.tag()));
    return Error::NotSupported;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  EMBER_CHECK_OR_RETURN(out.good(), Error::AccessFailed, "cannot write '%s'", path.c_str());
  return Error::Ok;
}

}  // namespace ember::runner
