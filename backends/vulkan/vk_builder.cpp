#include "backends/vulkan/vk_builder.h"

#include <cstring>

#include "backends/vulkan/ops/vk_op_util.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {

void contiguous_strides(const TensorDesc& t, int64_t* out) {
  int64_t stride = 1;
  for (uint32_t d = t.rank; d-- > 0;) {
    out[d] = stride;
    stride *= t.sizes[d];
  }
}

Error Builder::expect_args(size_t n) const {
  EMBER_CHECK_OR_RETURN(num_args() >= n, Error::InvalidProgram,
                        "VulkanBackend operator %zu (%s) has %zu arguments, needs %zu",
                        op_index_, PrintableName(op().name.c_str()).c_str(), num_args(), n);
  return Error::Ok;
}

Error Builder::unsupported(const char* what) const {
  set_error_message("VulkanBackend operator %zu (%s): %s not supported", op_index_,
                    PrintableName(op().name.c_str()).c_str(), what);
  return Error::NotSupported;
}

Error Builder::invalid(const char* what) const {
  set_error_message("VulkanBackend operator %zu (%s): %s", op_index_,
                    PrintableName(op().name.c_str()).c_str(), what);
  return Error::InvalidProgram;
}

namespace {

Error wrong_kind(const Builder& b, size_t arg, const char* wanted) {
  const char* got = arg < b.num_args() ? value_kind_name(b.value(b.arg_id(arg)).kind)
                                       : "missing";
  set_error_message("VulkanBackend operator (%s): argument %zu is %s, expected %s",
                    PrintableName(b.op().name.c_str()).c_str(), arg, got, wanted);
  return Error::InvalidProgram;
}

}  // namespace

bool Builder::is_null(size_t arg) const {
  return arg >= num_args() || value(arg_id(arg)).kind == ValueKind::Null;
}

Error Builder::tensor_arg(size_t arg, const TensorDesc** out) const {
  if (arg >= num_args() || value(arg_id(arg)).kind != ValueKind::Tensor) {
    return wrong_kind(*this, arg, "a tensor");
  }
  // Shapes the builders multiply and index with: checked at parse, and
  // again here for shapes propagated at run time.
  EMBER_RETURN_IF_ERROR(check_tensor_extent(*this, value(arg_id(arg)).tensor));
  *out = &value(arg_id(arg)).tensor;
  return Error::Ok;
}

Error Builder::int_arg(size_t arg, int64_t* out) const {
  if (arg >= num_args()) return wrong_kind(*this, arg, "an int");
  const Value& v = value(arg_id(arg));
  if (v.kind == ValueKind::Int || v.kind == ValueKind::Bool) {
    *out = v.int_value;
    return Error::Ok;
  }
  if (v.kind == ValueKind::SymInt) {
    *out = v.symint_value;
    return Error::Ok;
  }
  return wrong_kind(*this, arg, "an int");
}

Error Builder::double_arg(size_t arg, double* out) const {
  if (arg >= num_args()) return wrong_kind(*this, arg, "a double");
  const Value& v = value(arg_id(arg));
  if (v.kind == ValueKind::Double) {
    *out = v.double_value;
    return Error::Ok;
  }
  if (v.kind == ValueKind::Int || v.kind == ValueKind::Bool) {
    *out = double(v.int_value);
    return Error::Ok;
  }
  return wrong_kind(*this, arg, "a double");
}

Error Builder::bool_arg(size_t arg, bool* out) const {
  int64_t v = 0;
  EMBER_RETURN_IF_ERROR(int_arg(arg, &v));
  *out = v != 0;
  return Error::Ok;
}

Error Builder::int_list_arg(size_t arg, std::vector<int64_t>* out) const {
  if (arg >= num_args()) return wrong_kind(*this, arg, "an int list");
  const Value& v = value(arg_id(arg));
  if (v.kind == ValueKind::IntList || v.kind == ValueKind::BoolList) {
    *out = v.ints;
    return Error::Ok;
  }
  if (v.kind == ValueKind::ValueList) {  // a list of Int / SymInt values
    out->clear();
    for (int32_t id : v.items) {
      const Value& item = value(id);
      if (item.kind == ValueKind::Int) {
        out->push_back(item.int_value);
      } else if (item.kind == ValueKind::SymInt) {
        out->push_back(item.symint_value);
      } else {
        return wrong_kind(*this, arg, "an int list");
      }
    }
    return Error::Ok;
  }
  return wrong_kind(*this, arg, "an int list");
}

Error Builder::tensor_list_arg(size_t arg, std::vector<int32_t>* out) const {
  if (arg >= num_args() || value(arg_id(arg)).kind != ValueKind::ValueList) {
    return wrong_kind(*this, arg, "a tensor list");
  }
  *out = value(arg_id(arg)).items;
  for (int32_t id : *out) {
    if (value(id).kind != ValueKind::Tensor) return wrong_kind(*this, arg, "a tensor list");
    EMBER_RETURN_IF_ERROR(check_tensor_extent(*this, value(id).tensor));
  }
  return Error::Ok;
}

Error Builder::dispatch(const char* shader, std::initializer_list<int32_t> tensors,
                        const void* push, size_t push_size, uint64_t threads) {
  return dispatch(shader, std::vector<int32_t>(tensors), push, push_size, threads);
}

Error Builder::dispatch(const char* shader, const std::vector<int32_t>& tensors,
                        const void* push, size_t push_size, uint64_t threads, bool once) {
  if (push_size > kMaxPush) return invalid("push constants over 128 bytes (a builder bug)");
  for (int32_t id : tensors) {
    if (id < 0 || size_t(id) >= graph_.values.size() ||
        (value(id).kind != ValueKind::Tensor && value(id).kind != ValueKind::SymInt)) {
      return invalid("dispatch binds a value that is neither a tensor nor a SymInt");
    }
  }
  Dispatch d;
  d.shader = shader;
  d.tensors = tensors;
  std::memcpy(d.push, push, push_size);
  d.push_size = uint32_t(push_size);
  const uint64_t groups = (threads + kWorkgroupSize - 1) / kWorkgroupSize;
  if (groups == 0) return Error::Ok;  // an empty tensor: nothing to run
  constexpr uint64_t kMaxGroups = 65535;
  if (groups > kMaxGroups * kMaxGroups) return unsupported("a tensor this large");
  d.groups[0] = uint32_t(groups < kMaxGroups ? groups : kMaxGroups);
  d.groups[1] = uint32_t((groups + kMaxGroups - 1) / kMaxGroups);
  d.op_index = op_index_;
  d.once = once;
  dispatches_.push_back(std::move(d));
  return Error::Ok;
}

}  // namespace ember::vulkan
