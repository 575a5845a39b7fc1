// Module's inputs, execute and outputs: inputs are checked against the
// method's metadata (so that a mistake reads "input 1: expected Float, got
// Long" before the Method sees it), outputs are copied out into TensorPtrs
// the caller owns.
#include <cstdio>
#include <string>

#include "extension/module/module.h"
#include "extension/module/module_internal.h"
#include "runtime/core/error_message.h"

namespace ember {

namespace {

// "[2, 3]"
std::string shape_text(Span<const SizesType> sizes) {
  std::string text = "[";
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (d != 0) text += ", ";
    text += std::to_string(sizes[d]);
  }
  return text + "]";
}

// The tensor rules of set_input(): dtype, rank, and sizes within what the
// method's metadata allows.
Error check_tensor_input(const char* method, size_t index, const TensorInfo& info,
                         const Tensor& given) {
  EMBER_CHECK_OR_RETURN(given.impl() != nullptr, Error::InvalidArgument,
                        "method '%s' input %zu: the tensor is null", method, index);
  EMBER_CHECK_OR_RETURN(given.scalar_type() == info.scalar_type(), Error::InvalidArgument,
                        "method '%s' input %zu: expected dtype %s, got %s", method, index,
                        scalar_type_name(info.scalar_type()),
                        scalar_type_name(given.scalar_type()));
  const Span<const int32_t> expected = info.sizes();
  const Span<const SizesType> sizes = given.sizes();
  EMBER_CHECK_OR_RETURN(sizes.size() == expected.size(), Error::InvalidArgument,
                        "method '%s' input %zu: expected %zu dimensions (shape %s), got %zu "
                        "(shape %s)",
                        method, index, expected.size(), shape_text(expected).c_str(),
                        sizes.size(), shape_text(sizes).c_str());
  for (size_t d = 0; d < sizes.size(); ++d) {
    switch (info.shape_dynamism()) {
      case ShapeDynamism::Static:
        EMBER_CHECK_OR_RETURN(sizes[d] == expected[d], Error::InvalidArgument,
                              "method '%s' input %zu: expected shape %s, got %s (dimension "
                              "%zu)",
                              method, index, shape_text(expected).c_str(),
                              shape_text(sizes).c_str(), d);
        break;
      case ShapeDynamism::DynamicBound:
        EMBER_CHECK_OR_RETURN(sizes[d] <= expected[d], Error::InvalidArgument,
                              "method '%s' input %zu: shape %s is above the method's upper "
                              "bound %s (dimension %zu is %d, at most %d)",
                              method, index, shape_text(sizes).c_str(),
                              shape_text(expected).c_str(), d, int(sizes[d]),
                              int(expected[d]));
        break;
      case ShapeDynamism::DynamicUnbound:
        break;
    }
  }
  return Error::Ok;
}

// The count rule shared by execute() (at most) and set_inputs() (exactly).
Error check_input_count(const char* method, size_t given, size_t takes, bool exact) {
  EMBER_CHECK_OR_RETURN(given <= takes, Error::InvalidArgument,
                        "method '%s': input %zu is one too many: the method takes %zu "
                        "input%s, got %zu",
                        method, takes, takes, takes == 1 ? "" : "s", given);
  EMBER_CHECK_OR_RETURN(!exact || given == takes, Error::InvalidArgument,
                        "method '%s': input %zu is missing: the method takes %zu input%s, "
                        "got %zu",
                        method, given, takes, takes == 1 ? "" : "s", given);
  return Error::Ok;
}

}  // namespace

Error Module::set_checked_input(LoadedMethod& loaded, const EValue& value, size_t index) {
  clear_error_message();
  Method& method = *loaded.method;
  const PrintableName shown(loaded.name.c_str());  // may come from a file
  const MethodMeta meta = method.method_meta();
  EMBER_CHECK_OR_RETURN(index < meta.num_inputs(), Error::InvalidArgument,
                        "method '%s': input index %zu out of range (the method takes %zu "
                        "input%s)",
                        shown.c_str(), index, meta.num_inputs(),
                        meta.num_inputs() == 1 ? "" : "s");
  Result<Tag> tag = meta.input_tag(index);
  if (!tag.ok()) return tag.error();
  EMBER_CHECK_OR_RETURN(value.tag() == *tag, Error::InvalidArgument,
                        "method '%s' input %zu: expected %s %s, got %s %s", shown.c_str(), index,
                        *tag == Tag::Int ? "an" : "a", tag_name(*tag),
                        value.tag() == Tag::Int ? "an" : "a", tag_name(value.tag()));
  if (*tag == Tag::Tensor) {
    Result<TensorInfo> info = meta.input_tensor_meta(index);
    if (!info.ok()) return info.error();
    EMBER_RETURN_IF_ERROR(check_tensor_input(shown.c_str(), index, *info, value.to_tensor()));
  }
  EMBER_RETURN_IF_ERROR(method.set_input(value, index));
  loaded.held_inputs[index].reset();
  return Error::Ok;
}

Error Module::set_input(const std::string& name, const EValue& value, size_t index) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  return set_checked_input(**loaded, value, index);
}

Error Module::set_input(const std::string& name, const TensorPtr& tensor, size_t index) {
  Result<LoadedMethod*> found = loaded_method(name);
  if (!found.ok()) return found.error();
  LoadedMethod& loaded = **found;
  EMBER_CHECK_OR_RETURN(tensor != nullptr, Error::InvalidArgument,
                        "method '%s' input %zu: the TensorPtr is null",
                        PrintableName(name.c_str()).c_str(), index);
  EMBER_RETURN_IF_ERROR(set_checked_input(loaded, EValue(*tensor), index));
  // An input the program does not plan now points at the tensor's data.
  Result<TensorInfo> info = loaded.method->method_meta().input_tensor_meta(index);
  if (info.ok() && !info->is_memory_planned()) loaded.held_inputs[index] = tensor;
  return Error::Ok;
}

Error Module::set_inputs(const std::string& name, const std::vector<EValue>& values) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  EMBER_RETURN_IF_ERROR(check_input_count(PrintableName(name.c_str()).c_str(), values.size(),
                                          (*loaded)->method->inputs_size(), /*exact=*/true));
  for (size_t i = 0; i < values.size(); ++i) {
    EMBER_RETURN_IF_ERROR(set_checked_input(**loaded, values[i], i));
  }
  return Error::Ok;
}

Error Module::set_inputs(const std::string& name, const std::vector<TensorPtr>& tensors) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  EMBER_RETURN_IF_ERROR(check_input_count(PrintableName(name.c_str()).c_str(), tensors.size(),
                                          (*loaded)->method->inputs_size(), /*exact=*/true));
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_RETURN_IF_ERROR(set_input(name, tensors[i], i));
  }
  return Error::Ok;
}

Result<Outputs> Module::execute(const std::string& name) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  return run(**loaded);
}

Result<Outputs> Module::execute(const std::string& name, const std::vector<EValue>& inputs) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  EMBER_RETURN_IF_ERROR(check_input_count(PrintableName(name.c_str()).c_str(), inputs.size(),
                                          (*loaded)->method->inputs_size(), /*exact=*/false));
  for (size_t i = 0; i < inputs.size(); ++i) {
    EMBER_RETURN_IF_ERROR(set_checked_input(**loaded, inputs[i], i));
  }
  return run(**loaded);
}

Result<Outputs> Module::execute(const std::string& name, const std::vector<TensorPtr>& inputs) {
  Result<LoadedMethod*> loaded = loaded_method(name);
  if (!loaded.ok()) return loaded.error();
  EMBER_RETURN_IF_ERROR(check_input_count(PrintableName(name.c_str()).c_str(), inputs.size(),
                                          (*loaded)->method->inputs_size(), /*exact=*/false));
  for (size_t i = 0; i < inputs.size(); ++i) {
    EMBER_RETURN_IF_ERROR(set_input(name, inputs[i], i));
  }
  return run(**loaded);
}

Result<Outputs> Module::run(LoadedMethod& loaded) {
  Method& method = *loaded.method;
  EMBER_RETURN_IF_ERROR(method.execute());
  Outputs outputs;
  outputs.values_.reserve(method.outputs_size());
  outputs.tensors_.reserve(method.outputs_size());
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    const EValue& value = method.get_output(i);
    switch (value.tag()) {
      case Tag::Tensor: {
        Result<TensorPtr> copy = clone_tensor_ptr(value.to_tensor());
        if (!copy.ok()) {
          prefix_error_message(error_name(copy.error()), "method '%s' output %zu",
                               PrintableName(loaded.name.c_str()).c_str(), i);
          return copy.error();
        }
        outputs.values_.emplace_back(**copy);
        outputs.tensors_.push_back(std::move(*copy));
        break;
      }
      case Tag::None:
      case Tag::Int:
      case Tag::Double:
      case Tag::Bool:
      case Tag::String:
        outputs.values_.push_back(value);
        outputs.tensors_.emplace_back();
        break;
      default:
        set_error_message("method '%s' output %zu: %s outputs cannot be returned by "
                          "execute(); read them from method()",
                          PrintableName(loaded.name.c_str()).c_str(), i, tag_name(value.tag()));
        return Error::NotSupported;
    }
  }
  return outputs;
}

}  // namespace ember
