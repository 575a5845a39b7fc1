#include "runtime/core/tensor.h"

#include "runtime/core/error_message.h"

namespace ember {

bool is_valid_dim_order(Span<const DimOrderType> dim_order) {
  if (dim_order.size() > kMaxTensorDim) {
    return false;
  }
  bool seen[kMaxTensorDim] = {};
  for (DimOrderType d : dim_order) {
    if (d >= dim_order.size() || seen[d]) {
      return false;
    }
    seen[d] = true;
  }
  return true;
}

bool is_contiguous_dim_order(Span<const DimOrderType> dim_order) {
  for (size_t i = 0; i < dim_order.size(); ++i) {
    if (dim_order[i] != i) {
      return false;
    }
  }
  return true;
}

bool compute_strides(Span<const SizesType> sizes,
                     Span<const DimOrderType> dim_order, StridesType* strides) {
  if (sizes.size() != dim_order.size() || !is_valid_dim_order(dim_order)) {
    return false;
  }
  StridesType running = 1;
  for (size_t i = dim_order.size(); i > 0; --i) {
    const DimOrderType d = dim_order[i - 1];
    strides[d] = running;
    // A zero-sized dim still gets stride 1 semantics for its neighbours,
    // as PyTorch computes them.
    running *= sizes[d] > 1 ? sizes[d] : 1;
  }
  return true;
}

bool checked_nbytes(size_t element_size, Span<const SizesType> sizes, size_t* nbytes) {
  size_t n = element_size;
  size_t span = element_size;
  for (SizesType s : sizes) {
    const size_t u = size_t(s);
    if (__builtin_mul_overflow(span, u > 1 ? u : 1, &span) || span > kMaxTensorBytes) {
      return false;
    }
    n *= u;  // at most span
  }
  *nbytes = n;
  return true;
}

namespace {
int64_t product(Span<const SizesType> sizes) {
  int64_t n = 1;
  for (SizesType s : sizes) {
    n *= s;
  }
  return n;
}
}  // namespace

TensorImpl::TensorImpl(ScalarType type, size_t dim, SizesType* sizes,
                       void* data, DimOrderType* dim_order,
                       StridesType* strides, ShapeDynamism dynamism)
    : type_(type),
      dim_(dim),
      numel_(product({sizes, dim})),
      capacity_nbytes_(size_t(numel_) * ::ember::element_size(type)),
      sizes_(sizes),
      dim_order_(dim_order),
      strides_(strides),
      data_(data),
      dynamism_(dynamism) {
  compute_strides({sizes_, dim_}, {dim_order_, dim_}, strides_);
}

Error TensorImpl::resize(Span<const SizesType> new_sizes) {
  EMBER_CHECK_OR_RETURN(new_sizes.size() == dim_, Error::InvalidArgument,
                        "resize: tensor has %zu dims, new shape has %zu", dim_,
                        new_sizes.size());
  bool same = true;
  for (size_t i = 0; i < dim_; ++i) {
    EMBER_CHECK_OR_RETURN(new_sizes[i] >= 0, Error::InvalidArgument,
                          "resize: size %d at dim %zu is negative",
                          int(new_sizes[i]), i);
    same = same && new_sizes[i] == sizes_[i];
  }
  if (same) {
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(dynamism_ != ShapeDynamism::Static, Error::NotSupported,
                        "resize: tensor has a static shape; shape change "
                        "refused (dim %zu)",
                        dim_);
  size_t nbytes = 0;
  EMBER_CHECK_OR_RETURN(checked_nbytes(::ember::element_size(type_), new_sizes, &nbytes),
                        Error::InvalidArgument,
                        "resize: the new sizes multiply past 2^48 bytes");
  EMBER_CHECK_OR_RETURN(nbytes <= capacity_nbytes_, Error::NotSupported,
                        "resize: new shape needs %zu bytes, more than the tensor's "
                        "capacity of %zu bytes (bounded dynamic shapes may only shrink)",
                        nbytes, capacity_nbytes_);
  for (size_t i = 0; i < dim_; ++i) {
    sizes_[i] = new_sizes[i];
  }
  numel_ = int64_t(nbytes / ::ember::element_size(type_));
  compute_strides({sizes_, dim_}, {dim_order_, dim_}, strides_);
  return Error::Ok;
}

}  // namespace ember
