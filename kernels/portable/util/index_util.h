// Helpers for the indexing and data-movement kernels (select, gather,
// scatter, index, embedding, flip, roll, ...):
//
// - index tensors: check_index_tensor() accepts Long or Int; index_value()
//   reads entry i; normalize_index() maps a possibly negative index into
//   [0, size) or records "index 7 is out of bounds for dim 1 with size 4".
// - visit_element_width(): type-agnostic copies dispatch on the element's
//   byte width (1, 2, 4 or 8) instead of its dtype.
// - Odometer: walks the coordinates of a shape in row-major order, keeping
//   one running offset per operand (strides in elements, any dim order).
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Fails unless `t` has dtype Long or Int.
bool check_index_tensor(KernelArgs& args, Tensor t, const char* what);

// Entry i (flat, in storage order) of a Long or Int tensor.
inline int64_t index_value(const void* data, ScalarType type, int64_t i) {
  return type == ScalarType::Long ? static_cast<const int64_t*>(data)[i]
                                  : int64_t(static_cast<const int32_t*>(data)[i]);
}

// Fails when the storage of `index` overlaps `out`'s. Index kernels check
// every index value before they write, so their writes must not be able to
// change one; only a hostile memory plan places the two so.
bool check_index_apart_from_out(KernelArgs& args, Tensor index, Tensor out,
                                const char* what);
// The same for every present tensor of an index list (index, index_put).
bool check_indices_apart_from_out(KernelArgs& args, Span<Optional<Tensor>> indices,
                                  Tensor out);

// Maps `index` in [-size, size) to [0, size); otherwise records an error
// naming `what`, the dim and the size.
bool normalize_index(KernelArgs& args, int64_t index, int64_t size,
                     size_t dim, const char* what, int64_t* out);

template <size_t W>
struct WidthType;
template <> struct WidthType<1> { using type = uint8_t; };
template <> struct WidthType<2> { using type = uint16_t; };
template <> struct WidthType<4> { using type = uint32_t; };
template <> struct WidthType<8> { using type = uint64_t; };

// Calls f(TypeTag-like WidthType<W>{}) for the element's byte width; false
// for any other width.
template <typename F>
bool visit_element_width(size_t width, F&& f) {
  switch (width) {
    case 1: f(WidthType<1>{}); return true;
    case 2: f(WidthType<2>{}); return true;
    case 4: f(WidthType<4>{}); return true;
    case 8: f(WidthType<8>{}); return true;
    default: return false;
  }
}

// Row-major walk over `sizes` with up to kOperands running offsets.
template <size_t kOperands>
class Odometer final {
 public:
  // strides[k][d]: operand k's stride along dim d (elements).
  Odometer(const SizesType* sizes, size_t ndim,
           const int64_t (*strides)[kMaxTensorDim])
      : sizes_(sizes), ndim_(ndim), strides_(strides) {}

  const int64_t* offsets() const { return offsets_; }
  const int64_t* coord() const { return coord_; }

  // Moves to the next coordinate (row-major).
  void next() {
    for (size_t d = ndim_; d-- > 0;) {
      for (size_t k = 0; k < kOperands; ++k) {
        offsets_[k] += strides_[k][d];
      }
      if (++coord_[d] < sizes_[d]) {
        return;
      }
      for (size_t k = 0; k < kOperands; ++k) {
        offsets_[k] -= strides_[k][d] * sizes_[d];
      }
      coord_[d] = 0;
    }
  }

 private:
  const SizesType* sizes_;
  size_t ndim_;
  const int64_t (*strides_)[kMaxTensorDim];
  int64_t offsets_[kOperands] = {};
  int64_t coord_[kMaxTensorDim] = {};
};

// Copies a tensor's strides into an int64 row.
inline void strides_of(Tensor t, int64_t* row) {
  for (size_t d = 0; d < t.dim(); ++d) {
    row[d] = t.strides()[d];
  }
}

}  // namespace ember
