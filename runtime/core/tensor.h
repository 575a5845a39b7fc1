// Tensor: a typed, shaped view of memory the runtime does not own.
//
// A TensorImpl holds the metadata (type, sizes, dim order, strides, data
// pointer); all of its arrays are provided by the creator (the method
// allocator when a program loads; stack arrays in tests) and must outlive
// it. `Tensor` is a cheap handle to a TensorImpl, passed by value.
//
// Dim order lists dimensions from outermost to innermost in memory; strides
// are always derived from sizes and dim order (no arbitrary strides).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {

using SizesType = int32_t;
using DimOrderType = uint8_t;
using StridesType = int64_t;

// Most dimensions a tensor may have. Untrusted programs with more are
// rejected at load.
constexpr size_t kMaxTensorDim = 16;

// The most bytes a tensor's sizes may span, zero sizes counted as one (what
// its strides multiply): 2^48 where size_t has 64 bits, half the address
// space where it has 32 (Cortex-M). Untrusted shapes past it are refused.
constexpr size_t kMaxTensorBytes =
    (uint64_t(1) << 48) < SIZE_MAX / 2 ? size_t(uint64_t(1) << 48) : SIZE_MAX / 2;

// Dense byte size of a tensor with these sizes (all >= 0) into *nbytes.
// False when the sizes, zeros counted as one, multiply past
// kMaxTensorBytes: a zero size must not hide an overflowing product of the
// others.
bool checked_nbytes(size_t element_size, Span<const SizesType> sizes, size_t* nbytes);

enum class ShapeDynamism : uint8_t {
  Static = 0,
  DynamicBound = 1,
  DynamicUnbound = 2,
};

// Fills `strides` from sizes and dim order. Returns false if dim_order is
// not a permutation of [0, dim).
bool compute_strides(Span<const SizesType> sizes,
                     Span<const DimOrderType> dim_order, StridesType* strides);
// True if `dim_order` is a permutation of [0, dim_order.size()).
bool is_valid_dim_order(Span<const DimOrderType> dim_order);
// True for the identity order (row-major, "contiguous").
bool is_contiguous_dim_order(Span<const DimOrderType> dim_order);

class TensorImpl final {
 public:
  // `sizes`, `dim_order` and `strides` must each hold `dim` elements and stay
  // alive as long as this object. Strides are computed here. `data` may be
  // null (storage bound later). The capacity is the byte size of the given
  // shape: a bounded-dynamic tensor may later shrink to any shape whose byte
  // size fits it.
  TensorImpl(ScalarType type, size_t dim, SizesType* sizes, void* data,
             DimOrderType* dim_order, StridesType* strides,
             ShapeDynamism dynamism = ShapeDynamism::Static);

  ScalarType scalar_type() const { return type_; }
  size_t dim() const { return dim_; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return size_t(numel_) * ::ember::element_size(type_); }
  size_t capacity_nbytes() const { return capacity_nbytes_; }
  size_t element_size() const { return ::ember::element_size(type_); }
  Span<const SizesType> sizes() const { return {sizes_, dim_}; }
  Span<const DimOrderType> dim_order() const { return {dim_order_, dim_}; }
  Span<const StridesType> strides() const { return {strides_, dim_}; }
  ShapeDynamism shape_dynamism() const { return dynamism_; }
  void* data() const { return data_; }
  void set_data(void* data) { data_ = data; }

  // Changes the shape, following upstream's rules: the rank cannot change;
  // a static tensor accepts only its own shape; a dynamic one accepts any
  // non-negative shape whose byte size fits its capacity. On error the
  // tensor is unchanged and the message says which bound was broken.
  Error resize(Span<const SizesType> new_sizes);

 private:
  ScalarType type_;
  size_t dim_;
  int64_t numel_;
  size_t capacity_nbytes_;
  SizesType* sizes_;
  DimOrderType* dim_order_;
  StridesType* strides_;
  void* data_;
  ShapeDynamism dynamism_;
};

class Tensor final {
 public:
  Tensor() = default;
  explicit Tensor(TensorImpl* impl) : impl_(impl) {}

  TensorImpl* impl() const { return impl_; }
  ScalarType scalar_type() const { return impl_->scalar_type(); }
  ScalarType dtype() const { return impl_->scalar_type(); }
  size_t dim() const { return impl_->dim(); }
  int64_t numel() const { return impl_->numel(); }
  size_t nbytes() const { return impl_->nbytes(); }
  size_t element_size() const { return impl_->element_size(); }
  Span<const SizesType> sizes() const { return impl_->sizes(); }
  // Size of dimension `d`; negative `d` counts from the end. Caller checks
  // the range.
  int64_t size(int64_t d) const {
    return impl_->sizes()[d < 0 ? size_t(d + int64_t(dim())) : size_t(d)];
  }
  Span<const DimOrderType> dim_order() const { return impl_->dim_order(); }
  Span<const StridesType> strides() const { return impl_->strides(); }
  ShapeDynamism shape_dynamism() const { return impl_->shape_dynamism(); }
  bool is_contiguous() const { return is_contiguous_dim_order(dim_order()); }

  const void* const_data_ptr() const { return impl_->data(); }
  void* mutable_data_ptr() const { return impl_->data(); }
  template <typename T>
  const T* const_data_ptr() const { return static_cast<const T*>(impl_->data()); }
  template <typename T>
  T* mutable_data_ptr() const { return static_cast<T*>(impl_->data()); }

 private:
  TensorImpl* impl_ = nullptr;
};

// Resizes `t` (see TensorImpl::resize); the function kernels call on `out`.
inline Error resize_tensor(Tensor t, Span<const SizesType> new_sizes) {
  return t.impl()->resize(new_sizes);
}

// A value that may be absent (used for optional tensors in kernel args).
template <typename T>
class Optional final {
 public:
  Optional() = default;
  Optional(const T& value) : value_(value), has_value_(true) {}  // NOLINT
  bool has_value() const { return has_value_; }
  const T& value() const { return value_; }

 private:
  T value_{};
  bool has_value_ = false;
};

}  // namespace ember
