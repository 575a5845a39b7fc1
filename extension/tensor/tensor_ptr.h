// extension/tensor: tensors that own their metadata (and, unless they view
// the caller's memory, their data), for applications that feed a Module.
//
// A TensorPtr is a std::shared_ptr<Tensor>: `*t` is the runtime's Tensor,
// so `EValue(*t)` is a method input, and Module takes TensorPtrs directly.
// The sizes, dim order, strides and TensorImpl live in one block owned by
// the pointer; copies share it (and share the data: a copy of a TensorPtr
// is not a copy of the tensor; clone_tensor_ptr() is).
//
//   Result<TensorPtr> x = make_tensor_ptr({2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
//   Result<TensorPtr> y = zeros({2, 3});
//   Result<TensorPtr> view = from_blob(buffer, {2, 3}, ScalarType::Float,
//                                      [](void* p) { std::free(p); });
//
// Every factory checks its arguments and returns an Error with a message
// (last_error_message()) rather than asserting or throwing:
//   InvalidArgument         a negative size, more than kMaxTensorDim
//                           dimensions, a dim order that is not a
//                           permutation, a value count that does not match
//                           the sizes, null data for a non-empty tensor, a
//                           fill value the dtype cannot hold;
//   NotSupported            a dtype the factory cannot produce (full/ones of
//                           a quantized or complex type);
//   MemoryAllocationFailed  owned storage could not be allocated.
// Owned storage comes from malloc/calloc (aligned for any element type).
// Tensors default to ShapeDynamism::DynamicBound (upstream's default):
// resize_tensor() may shrink them within the bytes they were made with.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"

namespace ember {

using TensorPtr = std::shared_ptr<Tensor>;

// Called once with the data pointer when the last TensorPtr sharing the
// tensor goes away.
using TensorDeleter = std::function<void(void*)>;

// A tensor over the caller's `data` (not copied). Without a deleter the
// caller keeps ownership: the memory must outlive every copy of the
// TensorPtr and every method that reads it (an input the program does not
// plan is read in place at execute()). With a deleter, the TensorPtr takes
// ownership and calls deleter(data) exactly once, when the last copy is
// released. If the call fails, nothing is taken: the deleter is not called
// and the caller still owns `data`. `data` may be null only for a tensor
// with no elements. The dim order defaults to contiguous (row-major).
Result<TensorPtr> from_blob(void* data, std::vector<SizesType> sizes,
                            ScalarType type = ScalarType::Float, TensorDeleter deleter = nullptr,
                            ShapeDynamism dynamism = ShapeDynamism::DynamicBound);
Result<TensorPtr> from_blob(void* data, std::vector<SizesType> sizes,
                            std::vector<DimOrderType> dim_order, ScalarType type,
                            TensorDeleter deleter = nullptr,
                            ShapeDynamism dynamism = ShapeDynamism::DynamicBound);

namespace tensor_detail {
// from_blob() that first checks that `count` values fill `sizes`.
Result<TensorPtr> from_values(void* data, size_t count, std::vector<SizesType> sizes,
                              ScalarType type, TensorDeleter owner, ShapeDynamism dynamism);
}  // namespace tensor_detail

// ScalarTypeOf<T> (runtime/core/scalar_type.h) gives make_tensor_ptr its dtype.

// A tensor that owns `values` (moved in, not copied), laid out row-major
// with `sizes`; the dtype follows T. values.size() must equal the product
// of the sizes (an empty `sizes` is a 0-d tensor of one value).
template <typename T>
Result<TensorPtr> make_tensor_ptr(std::vector<SizesType> sizes, std::vector<T> values,
                                  ShapeDynamism dynamism = ShapeDynamism::DynamicBound) {
  auto owner = std::make_shared<std::vector<T>>(std::move(values));
  void* data = owner->data();
  const size_t count = owner->size();
  return tensor_detail::from_values(data, count, std::move(sizes), ScalarTypeOf<T>::value,
                                    [owner](void*) mutable { owner.reset(); }, dynamism);
}
// std::vector<bool> has no contiguous bool array: the values are copied.
template <>
Result<TensorPtr> make_tensor_ptr<bool>(std::vector<SizesType> sizes, std::vector<bool> values,
                                        ShapeDynamism dynamism);

template <typename T>
Result<TensorPtr> make_tensor_ptr(std::vector<SizesType> sizes, std::initializer_list<T> values,
                                  ShapeDynamism dynamism = ShapeDynamism::DynamicBound) {
  return make_tensor_ptr(std::move(sizes), std::vector<T>(values), dynamism);
}

// A 1-D tensor of `values`.
template <typename T>
Result<TensorPtr> make_tensor_ptr(std::vector<T> values) {
  const SizesType n = static_cast<SizesType>(values.size());
  return make_tensor_ptr(std::vector<SizesType>{n}, std::move(values));
}
template <typename T>
Result<TensorPtr> make_tensor_ptr(std::initializer_list<T> values) {
  return make_tensor_ptr(std::vector<T>(values));
}

// Owned, contiguous tensors filled with 0, 1 or `value`. zeros() takes any
// storable dtype; ones() and full() the real and bool types (Byte, Char,
// Short, Int, Long, UInt16/32/64, Half, BFloat16, Float, Double, Bool).
// full() converts `value` as a C++ cast would, after checking that the
// dtype can hold it: an integer dtype takes a finite value within its
// range (the fraction is dropped, toward zero); Bool takes any value
// (nonzero is true). A Long above 2^53 is not exact through a double.
Result<TensorPtr> zeros(std::vector<SizesType> sizes, ScalarType type = ScalarType::Float,
                        ShapeDynamism dynamism = ShapeDynamism::DynamicBound);
Result<TensorPtr> ones(std::vector<SizesType> sizes, ScalarType type = ScalarType::Float,
                       ShapeDynamism dynamism = ShapeDynamism::DynamicBound);
Result<TensorPtr> full(std::vector<SizesType> sizes, double value,
                       ScalarType type = ScalarType::Float,
                       ShapeDynamism dynamism = ShapeDynamism::DynamicBound);

// An owned copy of `tensor` at its current shape: same dtype, sizes, dim
// order and shape dynamism, its own bytes (tensor.nbytes() of them, in the
// source's memory order). InvalidArgument for a null tensor or one with
// elements but no data.
Result<TensorPtr> clone_tensor_ptr(const Tensor& tensor);
inline Result<TensorPtr> clone_tensor_ptr(const TensorPtr& tensor) {
  if (tensor == nullptr) return clone_tensor_ptr(Tensor());
  return clone_tensor_ptr(*tensor);
}

}  // namespace ember
