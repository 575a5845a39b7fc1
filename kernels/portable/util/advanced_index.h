// PyTorch advanced indexing (x[i, :, j], x[mask]) for index.Tensor and
// index_put.
//
// Prepare: prepare_advanced_index() reads the optional index list (None
// keeps a dim; a Long/Int tensor indexes one dim; a Bool/Byte mask indexes
// as many dims as it has, through its nonzero coordinates, kept in temp
// memory), broadcasts the index tensors, checks every index value against
// its dim (an error, never an out-of-bounds read) and computes the result
// shape: the broadcast index shape replaces the indexed dims when those are
// adjacent, and goes in front otherwise (PyTorch's rule).
//
// Execute: for_each_advanced_index() calls f(i, offset) for the i-th
// result element (row-major) with the element offset in the indexed
// tensor (its strides, any dim order).
#pragma once

#include <cstdint>

#include "kernels/portable/util/shape_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

struct AdvancedIndex {
  struct Slot {
    size_t self_dim;
    const void* data;
    ScalarType type;                  // Long or Int
    int64_t strides[kMaxTensorDim];   // per broadcast dim, 0 to broadcast
  };
  Slot slots[kMaxTensorDim];
  size_t num_slots = 0;
  Shape index_shape;  // broadcast shape of the index tensors
  Shape result;       // shape of the indexing result
  // Per result dim: the self dim it walks, or kIndexDim for a broadcast
  // index dim (index_dim_of gives which one).
  static constexpr size_t kIndexDim = ~size_t(0);
  size_t self_dim_of[kMaxTensorDim];
  size_t index_dim_of[kMaxTensorDim];
  int64_t self_sizes[kMaxTensorDim];
  int64_t self_strides[kMaxTensorDim];
};

// `self` gives the shape and strides indexed. Masks' coordinates go into
// temp memory from ctx. Fails (with a message) on a bad index list.
bool prepare_advanced_index(KernelArgs& args, KernelContext& ctx, Tensor self,
                            Span<Optional<Tensor>> indices, AdvancedIndex* ix);

// Calls f(result_index, self_offset) for every result element. Index values
// were checked by prepare_advanced_index(); the caller has made sure its
// writes cannot change them (check_indices_apart_from_out).
template <typename F>
void for_each_advanced_index(const AdvancedIndex& ix, F&& f) {
  const int64_t n = ix.result.numel();
  int64_t coord[kMaxTensorDim] = {};
  const size_t nd = ix.result.dim;
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (size_t r = 0; r < nd; ++r) {
      if (ix.self_dim_of[r] != AdvancedIndex::kIndexDim) {
        offset += coord[r] * ix.self_strides[ix.self_dim_of[r]];
      }
    }
    for (size_t s = 0; s < ix.num_slots; ++s) {
      const AdvancedIndex::Slot& slot = ix.slots[s];
      int64_t at = 0;
      for (size_t r = 0; r < nd; ++r) {
        if (ix.self_dim_of[r] == AdvancedIndex::kIndexDim) {
          at += coord[r] * slot.strides[ix.index_dim_of[r]];
        }
      }
      int64_t v = slot.type == ScalarType::Long
                      ? static_cast<const int64_t*>(slot.data)[at]
                      : int64_t(static_cast<const int32_t*>(slot.data)[at]);
      v = v < 0 ? v + ix.self_sizes[slot.self_dim] : v;
      offset += v * ix.self_strides[slot.self_dim];
    }
    f(i, offset);
    for (size_t r = nd; r-- > 0;) {
      if (++coord[r] < ix.result.sizes[r]) {
        break;
      }
      coord[r] = 0;
    }
  }
}

}  // namespace ember
