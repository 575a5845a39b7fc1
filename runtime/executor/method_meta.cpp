#include "runtime/executor/method_meta.h"

#include <cstring>

#include "runtime/backend/backend.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/program_validation.h"
#include "schema/program_generated.h"

namespace ember {

Tag tag_of_serialized_type(int kernel_types) {
  switch (static_cast<ember_fb::KernelTypes>(kernel_types)) {
    case ember_fb::KernelTypes::Int: return Tag::Int;
    case ember_fb::KernelTypes::Bool: return Tag::Bool;
    case ember_fb::KernelTypes::Double: return Tag::Double;
    case ember_fb::KernelTypes::Tensor: return Tag::Tensor;
    case ember_fb::KernelTypes::String: return Tag::String;
    case ember_fb::KernelTypes::IntList: return Tag::ListInt;
    case ember_fb::KernelTypes::DoubleList: return Tag::ListDouble;
    case ember_fb::KernelTypes::BoolList: return Tag::ListBool;
    case ember_fb::KernelTypes::TensorList: return Tag::ListTensor;
    case ember_fb::KernelTypes::OptionalTensorList: return Tag::ListOptionalTensor;
    default: return Tag::None;
  }
}

const char* MethodMeta::name() const {
  return plan_->name() ? plan_->name()->c_str() : "";
}

size_t MethodMeta::num_inputs() const {
  return plan_->inputs() ? plan_->inputs()->size() : 0;
}

size_t MethodMeta::num_outputs() const {
  return plan_->outputs() ? plan_->outputs()->size() : 0;
}

Result<Tag> MethodMeta::value_tag(int32_t value_index) const {
  const auto* values = plan_->values();
  EMBER_CHECK_OR_RETURN(values != nullptr && value_index >= 0 &&
                            uint32_t(value_index) < values->size() &&
                            values->Get(uint32_t(value_index)) != nullptr,
                        Error::InvalidProgram,
                        "method '%s': value index %d out of range", name(),
                        int(value_index));
  return tag_of_serialized_type(int(values->Get(uint32_t(value_index))->val_type()));
}

Result<Tag> MethodMeta::input_tag(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_inputs(), Error::InvalidArgument,
                        "method '%s': input %zu out of range (%zu inputs)", name(),
                        index, num_inputs());
  return value_tag(plan_->inputs()->Get(uint32_t(index)));
}

Result<Tag> MethodMeta::output_tag(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_outputs(), Error::InvalidArgument,
                        "method '%s': output %zu out of range (%zu outputs)", name(),
                        index, num_outputs());
  return value_tag(plan_->outputs()->Get(uint32_t(index)));
}

Result<TensorInfo> MethodMeta::tensor_meta(int32_t value_index, const char* what,
                                           size_t index) const {
  Result<Tag> tag = value_tag(value_index);
  if (!tag.ok()) {
    return tag.error();
  }
  EMBER_CHECK_OR_RETURN(*tag == Tag::Tensor, Error::InvalidArgument,
                        "method '%s': %s %zu is %s, not a Tensor", name(), what,
                        index, tag_name(*tag));
  const ember_fb::Tensor* t =
      plan_->values()->Get(uint32_t(value_index))->val_as_Tensor();
  EMBER_CHECK_OR_RETURN(t != nullptr, Error::InvalidProgram,
                        "method '%s': %s %zu has no tensor data", name(), what, index);
  Result<size_t> nbytes = serialized_tensor_nbytes(t, name(), size_t(value_index));
  if (!nbytes.ok()) {
    return nbytes.error();
  }
  const size_t dim = t->sizes() ? t->sizes()->size() : 0;
  Span<const uint8_t> dim_order;
  if (t->dim_order() != nullptr && t->dim_order()->size() == dim) {
    dim_order = {t->dim_order()->data(), dim};
  }
  return TensorInfo({t->sizes() ? t->sizes()->data() : nullptr, dim}, dim_order,
                    static_cast<ScalarType>(t->scalar_type()),
                    static_cast<ShapeDynamism>(t->shape_dynamism()), *nbytes,
                    t->allocation_info() != nullptr || t->data_buffer_idx() != 0);
}

Result<TensorInfo> MethodMeta::input_tensor_meta(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_inputs(), Error::InvalidArgument,
                        "method '%s': input %zu out of range (%zu inputs)", name(),
                        index, num_inputs());
  return tensor_meta(plan_->inputs()->Get(uint32_t(index)), "input", index);
}

Result<TensorInfo> MethodMeta::output_tensor_meta(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_outputs(), Error::InvalidArgument,
                        "method '%s': output %zu out of range (%zu outputs)", name(),
                        index, num_outputs());
  return tensor_meta(plan_->outputs()->Get(uint32_t(index)), "output", index);
}

size_t MethodMeta::num_memory_planned_buffers() const {
  const auto* sizes = plan_->non_const_buffer_sizes();
  // Entry 0 is reserved by the format.
  return sizes == nullptr || sizes->size() == 0 ? 0 : sizes->size() - 1;
}

Result<int64_t> MethodMeta::memory_planned_buffer_size(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_memory_planned_buffers(), Error::InvalidArgument,
                        "method '%s': planned buffer %zu out of range (%zu)",
                        name(), index, num_memory_planned_buffers());
  const int64_t size = plan_->non_const_buffer_sizes()->Get(uint32_t(index + 1));
  EMBER_CHECK_OR_RETURN(size >= 0, Error::InvalidProgram,
                        "method '%s': planned buffer %zu has negative size",
                        name(), index);
  return size;
}

size_t MethodMeta::num_backends() const {
  return plan_->delegates() ? plan_->delegates()->size() : 0;
}

Result<const char*> MethodMeta::get_backend_name(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_backends(), Error::InvalidArgument,
                        "method '%s': backend %zu out of range (%zu)", name(),
                        index, num_backends());
  const ember_fb::BackendDelegate* d = plan_->delegates()->Get(uint32_t(index));
  EMBER_CHECK_OR_RETURN(d != nullptr && d->id() != nullptr, Error::InvalidProgram,
                        "method '%s': delegate %zu has no id", name(), index);
  return d->id()->c_str();
}

bool MethodMeta::uses_backend(const char* backend_id) const {
  for (size_t i = 0; i < num_backends(); ++i) {
    Result<const char*> id = get_backend_name(i);
    if (id.ok() && strcmp(*id, backend_id) == 0) {
      return true;
    }
  }
  return false;
}

size_t MethodMeta::num_instructions() const {
  size_t total = 0;
  if (plan_->chains() != nullptr) {
    for (uint32_t i = 0; i < plan_->chains()->size(); ++i) {
      const ember_fb::Chain* c = plan_->chains()->Get(i);
      total += c && c->instructions() ? c->instructions()->size() : 0;
    }
  }
  return total;
}

size_t MethodMeta::method_allocator_bytes() const {
  size_t total = Method::allocator_bytes(plan_);
  const uint32_t delegates = plan_->delegates() ? plan_->delegates()->size() : 0;
  for (uint32_t i = 0; i < delegates; ++i) {
    const ember_fb::BackendDelegate* delegate = plan_->delegates()->Get(i);
    if (delegate == nullptr || delegate->id() == nullptr) continue;  // refused at load
    const BackendInterface* backend = find_backend(delegate->id()->c_str());
    if (backend != nullptr) total = add_bytes(total, backend->init_allocator_bytes());
  }
  return total;
}

}  // namespace ember
