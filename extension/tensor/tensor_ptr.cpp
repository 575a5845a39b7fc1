#include "extension/tensor/tensor_ptr.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "runtime/core/error_message.h"

namespace ember {

namespace {

// The block a TensorPtr owns: the metadata arrays, the TensorImpl over
// them, and the deleter for the data. The TensorPtr points at `tensor`
// inside it (shared_ptr's aliasing constructor).
struct TensorBox {
  TensorBox(ScalarType type, std::vector<SizesType> sizes_in,
            std::vector<DimOrderType> dim_order_in, void* data_in, TensorDeleter deleter_in,
            ShapeDynamism dynamism)
      : sizes(std::move(sizes_in)),
        dim_order(std::move(dim_order_in)),
        strides(sizes.size()),
        impl(type, sizes.size(), sizes.data(), data_in, dim_order.data(), strides.data(),
             dynamism),
        tensor(&impl),
        data(data_in),
        deleter(std::move(deleter_in)) {}
  TensorBox(const TensorBox&) = delete;
  TensorBox& operator=(const TensorBox&) = delete;
  ~TensorBox() {
    if (deleter) deleter(data);
  }

  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
  TensorImpl impl;
  Tensor tensor;
  void* data;
  TensorDeleter deleter;
};

std::vector<DimOrderType> contiguous_dim_order(size_t dim) {
  std::vector<DimOrderType> order(dim);
  for (size_t i = 0; i < dim; ++i) order[i] = DimOrderType(i);
  return order;
}

// The checks every factory shares; *nbytes gets the dense byte size.
Error check_shape(const char* what, ScalarType type, const std::vector<SizesType>& sizes,
                  const std::vector<DimOrderType>& dim_order, size_t* nbytes) {
  EMBER_CHECK_OR_RETURN(element_size(type) != 0, Error::InvalidArgument,
                        "%s: dtype %d is not a known ScalarType", what, int(type));
  EMBER_CHECK_OR_RETURN(sizes.size() <= kMaxTensorDim, Error::InvalidArgument,
                        "%s: %zu dimensions, at most %zu are supported", what, sizes.size(),
                        kMaxTensorDim);
  for (size_t d = 0; d < sizes.size(); ++d) {
    EMBER_CHECK_OR_RETURN(sizes[d] >= 0, Error::InvalidArgument,
                          "%s: size %d of dimension %zu is negative", what, int(sizes[d]), d);
  }
  EMBER_CHECK_OR_RETURN(dim_order.size() == sizes.size(), Error::InvalidArgument,
                        "%s: dim order has %zu entries for %zu dimensions", what,
                        dim_order.size(), sizes.size());
  EMBER_CHECK_OR_RETURN(is_valid_dim_order({dim_order.data(), dim_order.size()}),
                        Error::InvalidArgument, "%s: dim order is not a permutation of 0..%zu",
                        what, sizes.size() == 0 ? size_t(0) : sizes.size() - 1);
  EMBER_CHECK_OR_RETURN(checked_nbytes(element_size(type), {sizes.data(), sizes.size()}, nbytes),
                        Error::InvalidArgument, "%s: the sizes span more than %zu bytes", what,
                        kMaxTensorBytes);
  return Error::Ok;
}

Result<TensorPtr> make_box(void* data, std::vector<SizesType> sizes,
                           std::vector<DimOrderType> dim_order, ScalarType type,
                           TensorDeleter deleter, ShapeDynamism dynamism) {
  auto box = std::make_shared<TensorBox>(type, std::move(sizes), std::move(dim_order), data,
                                         std::move(deleter), dynamism);
  Tensor* tensor = &box->tensor;
  return TensorPtr(std::move(box), tensor);
}

// Owned, uninitialized (or zeroed) storage of `nbytes` for a new tensor.
Result<TensorPtr> allocate(const char* what, std::vector<SizesType> sizes, ScalarType type,
                           ShapeDynamism dynamism, bool zeroed) {
  std::vector<DimOrderType> order = contiguous_dim_order(sizes.size());
  size_t nbytes = 0;
  EMBER_RETURN_IF_ERROR(check_shape(what, type, sizes, order, &nbytes));
  // One byte at least, so that an empty tensor still has a pointer.
  void* data = zeroed ? std::calloc(nbytes == 0 ? 1 : nbytes, 1)
                      : std::malloc(nbytes == 0 ? 1 : nbytes);
  EMBER_CHECK_OR_RETURN(data != nullptr, Error::MemoryAllocationFailed,
                        "%s: cannot allocate %zu bytes", what, nbytes);
  return make_box(data, std::move(sizes), std::move(order), type,
                  [](void* p) { std::free(p); }, dynamism);
}

template <typename T>
void fill_as(void* data, int64_t numel, double value) {
  const T v = static_cast<T>(value);
  T* out = static_cast<T*>(data);
  for (int64_t i = 0; i < numel; ++i) out[i] = v;
}

// For 16-bit floats, convert once through float.
template <typename T>
void fill_via_float(void* data, int64_t numel, double value) {
  const T v = T(static_cast<float>(value));
  T* out = static_cast<T*>(data);
  for (int64_t i = 0; i < numel; ++i) out[i] = v;
}

template <typename T>
bool integer_holds(double value) {
  if (!std::isfinite(value)) return false;
  const double t = std::trunc(value);
  // The bounds as doubles: the lowest is exact (a power of two or 0); the
  // highest is compared exclusively against max + 1 (a power of two).
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi_excl = static_cast<double>(std::numeric_limits<T>::max() / 2 + 1) * 2.0;
  return t >= lo && t < hi_excl;
}

// Writes `value` into every element; NotSupported / InvalidArgument as
// documented for full().
Error fill(ScalarType type, void* data, int64_t numel, double value) {
  bool holds = true;
  switch (type) {
    case ScalarType::Byte: holds = integer_holds<uint8_t>(value); break;
    case ScalarType::Char: holds = integer_holds<int8_t>(value); break;
    case ScalarType::Short: holds = integer_holds<int16_t>(value); break;
    case ScalarType::Int: holds = integer_holds<int32_t>(value); break;
    case ScalarType::Long: holds = integer_holds<int64_t>(value); break;
    case ScalarType::UInt16: holds = integer_holds<uint16_t>(value); break;
    case ScalarType::UInt32: holds = integer_holds<uint32_t>(value); break;
    case ScalarType::UInt64: holds = integer_holds<uint64_t>(value); break;
    default: break;
  }
  EMBER_CHECK_OR_RETURN(holds, Error::InvalidArgument, "full: %s cannot hold the value %g",
                        scalar_type_name(type), value);
  switch (type) {
    case ScalarType::Byte: fill_as<uint8_t>(data, numel, value); break;
    case ScalarType::Char: fill_as<int8_t>(data, numel, value); break;
    case ScalarType::Short: fill_as<int16_t>(data, numel, value); break;
    case ScalarType::Int: fill_as<int32_t>(data, numel, value); break;
    case ScalarType::Long: fill_as<int64_t>(data, numel, value); break;
    case ScalarType::UInt16: fill_as<uint16_t>(data, numel, value); break;
    case ScalarType::UInt32: fill_as<uint32_t>(data, numel, value); break;
    case ScalarType::UInt64: fill_as<uint64_t>(data, numel, value); break;
    case ScalarType::Float: fill_as<float>(data, numel, value); break;
    case ScalarType::Double: fill_as<double>(data, numel, value); break;
    case ScalarType::Half: fill_via_float<Half>(data, numel, value); break;
    case ScalarType::BFloat16: fill_via_float<BFloat16>(data, numel, value); break;
    case ScalarType::Bool: {
      bool* out = static_cast<bool*>(data);
      for (int64_t i = 0; i < numel; ++i) out[i] = value != 0.0;
      break;
    }
    default:
      set_error_message("full: cannot fill a %s tensor with a value", scalar_type_name(type));
      return Error::NotSupported;
  }
  return Error::Ok;
}

}  // namespace

Result<TensorPtr> from_blob(void* data, std::vector<SizesType> sizes,
                            std::vector<DimOrderType> dim_order, ScalarType type,
                            TensorDeleter deleter, ShapeDynamism dynamism) {
  size_t nbytes = 0;
  EMBER_RETURN_IF_ERROR(check_shape("from_blob", type, sizes, dim_order, &nbytes));
  EMBER_CHECK_OR_RETURN(data != nullptr || nbytes == 0, Error::InvalidArgument,
                        "from_blob: data is null for a tensor of %zu bytes", nbytes);
  return make_box(data, std::move(sizes), std::move(dim_order), type, std::move(deleter),
                  dynamism);
}

Result<TensorPtr> from_blob(void* data, std::vector<SizesType> sizes, ScalarType type,
                            TensorDeleter deleter, ShapeDynamism dynamism) {
  std::vector<DimOrderType> order = contiguous_dim_order(sizes.size());
  return from_blob(data, std::move(sizes), std::move(order), type, std::move(deleter),
                   dynamism);
}

namespace tensor_detail {

Result<TensorPtr> from_values(void* data, size_t count, std::vector<SizesType> sizes,
                              ScalarType type, TensorDeleter owner, ShapeDynamism dynamism) {
  std::vector<DimOrderType> order = contiguous_dim_order(sizes.size());
  size_t nbytes = 0;
  EMBER_RETURN_IF_ERROR(check_shape("make_tensor_ptr", type, sizes, order, &nbytes));
  EMBER_CHECK_OR_RETURN(uint64_t(count) * element_size(type) == nbytes, Error::InvalidArgument,
                        "make_tensor_ptr: %zu values for sizes of %zu elements", count,
                        nbytes / element_size(type));
  return make_box(data, std::move(sizes), std::move(order), type, std::move(owner), dynamism);
}

}  // namespace tensor_detail

template <>
Result<TensorPtr> make_tensor_ptr<bool>(std::vector<SizesType> sizes, std::vector<bool> values,
                                        ShapeDynamism dynamism) {
  Result<TensorPtr> t = allocate("make_tensor_ptr", std::move(sizes), ScalarType::Bool,
                                 dynamism, /*zeroed=*/false);
  if (!t.ok()) return t.error();
  EMBER_CHECK_OR_RETURN(uint64_t((*t)->numel()) == values.size(), Error::InvalidArgument,
                        "make_tensor_ptr: %zu values for sizes of %lld elements",
                        values.size(), static_cast<long long>((*t)->numel()));
  bool* out = (*t)->mutable_data_ptr<bool>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

Result<TensorPtr> zeros(std::vector<SizesType> sizes, ScalarType type, ShapeDynamism dynamism) {
  return allocate("zeros", std::move(sizes), type, dynamism, /*zeroed=*/true);
}

Result<TensorPtr> ones(std::vector<SizesType> sizes, ScalarType type, ShapeDynamism dynamism) {
  return full(std::move(sizes), 1.0, type, dynamism);
}

Result<TensorPtr> full(std::vector<SizesType> sizes, double value, ScalarType type,
                       ShapeDynamism dynamism) {
  Result<TensorPtr> t = allocate("full", std::move(sizes), type, dynamism, /*zeroed=*/false);
  if (!t.ok()) return t.error();
  EMBER_RETURN_IF_ERROR(fill(type, (*t)->mutable_data_ptr(), (*t)->numel(), value));
  return t;
}

Result<TensorPtr> clone_tensor_ptr(const Tensor& tensor) {
  EMBER_CHECK_OR_RETURN(tensor.impl() != nullptr, Error::InvalidArgument,
                        "clone_tensor_ptr: the tensor is null");
  const size_t nbytes = tensor.nbytes();
  EMBER_CHECK_OR_RETURN(tensor.const_data_ptr() != nullptr || nbytes == 0,
                        Error::InvalidArgument,
                        "clone_tensor_ptr: the tensor has %zu bytes but no data", nbytes);
  std::vector<SizesType> sizes(tensor.sizes().begin(), tensor.sizes().end());
  std::vector<DimOrderType> order(tensor.dim_order().begin(), tensor.dim_order().end());
  size_t checked = 0;
  EMBER_RETURN_IF_ERROR(check_shape("clone_tensor_ptr", tensor.scalar_type(), sizes, order,
                                    &checked));
  void* data = std::malloc(nbytes == 0 ? 1 : nbytes);
  EMBER_CHECK_OR_RETURN(data != nullptr, Error::MemoryAllocationFailed,
                        "clone_tensor_ptr: cannot allocate %zu bytes", nbytes);
  if (nbytes != 0) std::memcpy(data, tensor.const_data_ptr(), nbytes);
  return make_box(data, std::move(sizes), std::move(order), tensor.scalar_type(),
                  [](void* p) { std::free(p); }, tensor.shape_dynamism());
}

}  // namespace ember
