// Test helper: tensors that own their storage (std::vector is fine in
// tests). Not for use in the runtime.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "runtime/core/tensor.h"

namespace ember::testing {

// Owns a TensorImpl and its arrays. Keep it alive while its tensor is used.
class OwnedTensor {
 public:
  OwnedTensor(ScalarType type, std::vector<SizesType> sizes,
              std::vector<DimOrderType> dim_order = {},
              ShapeDynamism dynamism = ShapeDynamism::Static)
      : sizes_(std::move(sizes)), dim_order_(std::move(dim_order)) {
    if (dim_order_.empty()) {
      for (size_t i = 0; i < sizes_.size(); ++i) {
        dim_order_.push_back(DimOrderType(i));
      }
    }
    strides_.resize(sizes_.size());
    size_t numel = 1;
    for (SizesType s : sizes_) numel *= size_t(s);
    storage_.assign(numel * element_size(type) + 16, 0);
    impl_ = std::make_unique<TensorImpl>(type, sizes_.size(), sizes_.data(),
                                         storage_.data(), dim_order_.data(),
                                         strides_.data(), dynamism);
  }
  OwnedTensor(const OwnedTensor&) = delete;
  OwnedTensor& operator=(const OwnedTensor&) = delete;

  Tensor tensor() const { return Tensor(impl_.get()); }
  operator Tensor() const { return tensor(); }  // NOLINT
  template <typename T>
  T* data() { return reinterpret_cast<T*>(storage_.data()); }

  template <typename T>
  std::vector<T> values() const {
    std::vector<T> out(size_t(impl_->numel()));
    if (!out.empty()) std::memcpy(out.data(), storage_.data(), out.size() * sizeof(T));
    return out;
  }

 private:
  std::vector<SizesType> sizes_;
  std::vector<DimOrderType> dim_order_;
  std::vector<StridesType> strides_;
  std::vector<unsigned char> storage_;
  std::unique_ptr<TensorImpl> impl_;
};

// Makes a tensor with the given values (count must match the shape).
template <typename T>
std::unique_ptr<OwnedTensor> make_tensor(ScalarType type,
                                         std::vector<SizesType> sizes,
                                         const std::vector<T>& values) {
  auto t = std::make_unique<OwnedTensor>(type, std::move(sizes));
  if (!values.empty()) {
    std::memcpy(t->template data<T>(), values.data(), values.size() * sizeof(T));
  }
  return t;
}

}  // namespace ember::testing
