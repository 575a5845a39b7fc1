#include "backends/vulkan/vk_io.h"

#include <cstring>

#include "backends/vulkan/vk_builder.h"
#include "runtime/core/half.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

template <typename T>
void widen_float(const void* src, size_t n, float* dst) {
  const T* s = static_cast<const T*>(src);
  for (size_t i = 0; i < n; ++i) dst[i] = float(s[i]);
}

template <typename T>
bool narrow_int(const void* src, size_t n, int32_t* dst) {
  const T* s = static_cast<const T*>(src);
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = int64_t(s[i]);
    if (v < INT32_MIN || v > INT32_MAX) return false;
    dst[i] = int32_t(v);
  }
  return true;
}

// Host element types Ember moves, as a DType (the host side of I/O).
bool host_dtype(ScalarType t, DType* out) {
  switch (t) {
    case ScalarType::Byte: *out = DType::UInt8; return true;
    case ScalarType::Char: *out = DType::Int8; return true;
    case ScalarType::Int: *out = DType::Int32; return true;
    case ScalarType::Long: *out = DType::Int64; return true;
    case ScalarType::Half: *out = DType::Float16; return true;
    case ScalarType::Float: *out = DType::Float32; return true;
    case ScalarType::Double: *out = DType::Float64; return true;
    case ScalarType::Bool: *out = DType::Bool; return true;
    default: return false;
  }
}

template <typename T>
void store_float(const float* src, size_t n, void* dst) {
  T* d = static_cast<T*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = T(src[i]);
}

template <typename T>
void store_int(const int32_t* src, size_t n, void* dst) {
  T* d = static_cast<T*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = T(src[i]);
}

Error check_shape(const Tensor& t, const TensorDesc& desc) {
  bool same = t.dim() == desc.rank;
  for (size_t d = 0; same && d < desc.rank; ++d) same = t.sizes()[d] == desc.sizes[d];
  EMBER_CHECK_OR_RETURN(same, Error::InvalidArgument,
                        "shape differs from the %u-d shape the program stored (dynamic shapes "
                        "are not yet supported by VulkanBackend)", desc.rank);
  return Error::Ok;
}

}  // namespace

Error to_device(const void* src, DType dtype, size_t n, uint8_t* dst) {
  float* f = reinterpret_cast<float*>(dst);
  int32_t* i = reinterpret_cast<int32_t*>(dst);
  switch (dtype) {
    case DType::Float32: std::memcpy(dst, src, n * 4); return Error::Ok;
    case DType::Float64: widen_float<double>(src, n, f); return Error::Ok;
    case DType::Float16: {
      const uint16_t* h = static_cast<const uint16_t*>(src);
      for (size_t k = 0; k < n; ++k) f[k] = Half::to_float(h[k]);
      return Error::Ok;
    }
    case DType::Int32: std::memcpy(dst, src, n * 4); return Error::Ok;
    case DType::Int8: narrow_int<int8_t>(src, n, i); return Error::Ok;
    case DType::UInt8: narrow_int<uint8_t>(src, n, i); return Error::Ok;
    case DType::Bool: narrow_int<uint8_t>(src, n, i); return Error::Ok;
    case DType::Int64:
      EMBER_CHECK_OR_RETURN(narrow_int<int64_t>(src, n, i), Error::InvalidProgram,
                            "an int64 value outside int32's range");
      return Error::Ok;
  }
  return Error::InvalidProgram;
}

Error host_to_slot(const Tensor& t, const TensorDesc& desc, uint8_t* dst) {
  EMBER_RETURN_IF_ERROR(check_shape(t, desc));
  DType host = DType::Float32;
  EMBER_CHECK_OR_RETURN(host_dtype(t.scalar_type(), &host) &&
                            device_float(host) == device_float(desc.dtype),
                        Error::InvalidArgument, "dtype %d does not match the program's %s",
                        int(t.scalar_type()), dtype_name(desc.dtype));
  const Error err = to_device(t.const_data_ptr(), host, size_t(t.numel()), dst);
  EMBER_CHECK_OR_RETURN(err == Error::Ok, Error::InvalidArgument,
                        "an int64 value outside int32's range");
  return Error::Ok;
}

Error slot_to_host(const uint8_t* src, const TensorDesc& desc, Tensor t) {
  if (check_shape(t, desc) != Error::Ok) {
    SizesType sizes[kMaxRank];
    for (size_t d = 0; d < desc.rank; ++d) sizes[d] = SizesType(desc.sizes[d]);
    const Error err = resize_tensor(t, {sizes, desc.rank});
    if (err != Error::Ok) {
      prefix_error_message(error_name(err), "cannot take the program's shape");
      return err;
    }
  }
  DType host = DType::Float32;
  EMBER_CHECK_OR_RETURN(host_dtype(t.scalar_type(), &host) &&
                            device_float(host) == device_float(desc.dtype),
                        Error::InvalidArgument, "dtype %d does not match the program's %s",
                        int(t.scalar_type()), dtype_name(desc.dtype));
  const size_t n = size_t(t.numel());
  const float* f = reinterpret_cast<const float*>(src);
  const int32_t* i = reinterpret_cast<const int32_t*>(src);
  void* dst = t.mutable_data_ptr();
  switch (host) {
    case DType::Float32: std::memcpy(dst, src, n * 4); break;
    case DType::Float64: store_float<double>(f, n, dst); break;
    case DType::Float16: store_float<Half>(f, n, dst); break;
    case DType::Int32: std::memcpy(dst, src, n * 4); break;
    case DType::Int64: store_int<int64_t>(i, n, dst); break;
    case DType::Int8: store_int<int8_t>(i, n, dst); break;
    case DType::UInt8: store_int<uint8_t>(i, n, dst); break;
    case DType::Bool: {
      uint8_t* b = static_cast<uint8_t*>(dst);
      for (size_t k = 0; k < n; ++k) b[k] = i[k] != 0;
      break;
    }
  }
  return Error::Ok;
}

}  // namespace ember::vulkan
