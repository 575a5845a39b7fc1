// Shared checks and the element walk for gather, scatter and scatter_add.
//
// PyTorch's rules: index has self's number of dims (a zero-dim tensor
// counts as one dim of size 1), and for every dim d index.size(d) <=
// self.size(d) except along `dim`, and <= src.size(d) for src. Every index
// value must lie in [0, self.size(dim)) (no negative indices).
#pragma once

#include "kernels/portable/util/index_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

// Checks the shapes and every index value (before anything is written).
// `src` may be null (gather, scatter.value).
bool check_scatter_gather(KernelArgs& args, Tensor self, size_t dim,
                          Tensor index, const Tensor* src);

// For every element of index (row-major over index's shape) calls
// f(self_offset, index_offset, src_offset) with element offsets: self's
// (or any tensor with self's shape and strides) at the indexed position,
// index's own, and src's at index's coordinate. `src` may be null (the src
// offset is then 0). Indices were checked by check_scatter_gather(), and
// the caller has made sure the writes cannot change them
// (check_index_apart_from_out).
template <typename F>
void for_each_scatter_gather(Tensor self, size_t dim, Tensor index,
                             const Tensor* src, F&& f) {
  const size_t nd = index.dim();
  if (index.numel() == 0) {
    return;
  }
  int64_t strides[3][kMaxTensorDim];
  SizesType sizes[kMaxTensorDim];
  for (size_t k = 0; k < nd; ++k) {
    sizes[k] = index.sizes()[k];
    strides[0][k] = (k == dim || self.dim() == 0) ? 0 : self.strides()[k];
    strides[1][k] = index.strides()[k];
    strides[2][k] =
        (src != nullptr && src->dim() > 0) ? src->strides()[k] : 0;
  }
  const int64_t step = self.dim() == 0 ? 0 : self.strides()[dim];
  const void* idx = index.const_data_ptr();
  const ScalarType it = index.scalar_type();
  Odometer<3> walk(sizes, nd, strides);
  const int64_t n = index.numel();
  for (int64_t e = 0; e < n; ++e, walk.next()) {
    const int64_t* off = walk.offsets();
    const int64_t v = index_value(idx, it, off[1]);
    f(off[0] + v * step, off[1], off[2]);
  }
}

}  // namespace ember
