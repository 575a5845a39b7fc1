#include "kernels/portable/util/advanced_index.h"

#include "kernels/portable/util/index_util.h"

namespace ember {

namespace {

bool is_mask(Tensor t) {
  return t.scalar_type() == ScalarType::Bool || t.scalar_type() == ScalarType::Byte;
}

bool mask_value(Tensor m, int64_t offset) {
  return static_cast<const uint8_t*>(m.const_data_ptr())[offset] != 0;
}

// Element offsets of a tensor's entries in row-major order, one at a time.
template <typename F>
void for_each_row_major(Tensor t, F&& f) {
  int64_t strides[1][kMaxTensorDim];
  strides_of(t, strides[0]);
  Odometer<1> walk(t.sizes().data(), t.dim(), strides);
  for (int64_t i = 0; i < t.numel(); ++i, walk.next()) {
    f(walk.offsets()[0], walk.coord());
  }
}

}  // namespace

bool prepare_advanced_index(KernelArgs& a, KernelContext& ctx, Tensor self,
                            Span<Optional<Tensor>> indices, AdvancedIndex* ix) {
  const size_t nd = self.dim();
  for (size_t d = 0; d < nd; ++d) {
    ix->self_sizes[d] = self.sizes()[d];
    ix->self_strides[d] = self.strides()[d];
  }
  // Slot shapes, before broadcasting.
  SizesType slot_sizes[kMaxTensorDim][kMaxTensorDim];
  size_t slot_dims[kMaxTensorDim];
  int64_t slot_strides[kMaxTensorDim][kMaxTensorDim];
  bool indexed[kMaxTensorDim] = {};
  size_t d = 0;  // next self dim
  size_t first = nd, last = 0;
  bool adjacent = true;
  ix->num_slots = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (!indices[i].has_value()) {
      ++d;
      if (d > nd) {
        return a.fail(Error::InvalidArgument,
                      "too many indices for a tensor of %zu dims", nd);
      }
      continue;
    }
    const Tensor t = indices[i].value();
    if (is_mask(t)) {
      const size_t k = t.dim();
      if (d + k > nd) {
        return a.fail(Error::InvalidArgument,
                      "too many indices for a tensor of %zu dims", nd);
      }
      for (size_t j = 0; j < k; ++j) {
        if (t.sizes()[j] != self.sizes()[d + j]) {
          return a.fail(Error::InvalidArgument,
                        "mask shape does not match self at dim %zu (%d vs %d)",
                        d + j, int(t.sizes()[j]), int(self.sizes()[d + j]));
        }
      }
      int64_t nnz = 0;
      for_each_row_major(t, [&](int64_t off, const int64_t*) { nnz += mask_value(t, off); });
      int64_t* coords = nullptr;
      if (nnz > 0 && k > 0) {
        coords = static_cast<int64_t*>(
            ctx.allocate_temp(size_t(nnz) * k * sizeof(int64_t)));
        if (coords == nullptr) {
          return a.fail(Error::MemoryAllocationFailed,
                        "no temp memory for a mask's %lld coordinates",
                        static_cast<long long>(nnz));
        }
        int64_t p = 0;
        for_each_row_major(t, [&](int64_t off, const int64_t* c) {
          if (mask_value(t, off)) {
            for (size_t j = 0; j < k; ++j) {
              coords[int64_t(j) * nnz + p] = c[j];
            }
            ++p;
          }
        });
      }
      if (k == 0) {
        // A zero-dim mask adds a dim of size nnz (0 or 1) in PyTorch; not
        // needed by exported programs.
        return a.fail(Error::NotSupported, "zero-dim mask indices are not supported");
      }
      for (size_t j = 0; j < k; ++j) {
        const size_t s = ix->num_slots++;
        ix->slots[s].self_dim = d + j;
        ix->slots[s].data = coords == nullptr ? nullptr : coords + int64_t(j) * nnz;
        ix->slots[s].type = ScalarType::Long;
        slot_dims[s] = 1;
        slot_sizes[s][0] = SizesType(nnz);
        slot_strides[s][0] = 1;
      }
      d += k;
    } else {
      if (!check_index_tensor(a, t, "indices entry")) {
        return false;
      }
      if (d >= nd) {
        return a.fail(Error::InvalidArgument,
                      "too many indices for a tensor of %zu dims", nd);
      }
      const size_t s = ix->num_slots++;
      ix->slots[s].self_dim = d;
      ix->slots[s].data = t.const_data_ptr();
      ix->slots[s].type = t.scalar_type();
      slot_dims[s] = t.dim();
      for (size_t j = 0; j < t.dim(); ++j) {
        slot_sizes[s][j] = t.sizes()[j];
        slot_strides[s][j] = t.strides()[j];
      }
      // Check every value against the dim now.
      for (int64_t e = 0; e < t.numel(); ++e) {
        int64_t v;
        if (!normalize_index(a, index_value(t.const_data_ptr(), t.scalar_type(), e),
                             self.sizes()[d], d, "index", &v)) {
          return false;
        }
      }
      ++d;
    }
  }
  for (size_t s = 0; s < ix->num_slots; ++s) {
    const size_t sd = ix->slots[s].self_dim;
    if (indexed[sd]) {
      return a.fail(Error::Internal, "dim %zu indexed twice", sd);
    }
    indexed[sd] = true;
    if (s > 0 && sd != ix->slots[s - 1].self_dim + 1) {
      adjacent = false;
    }
    first = sd < first ? sd : first;
    last = sd > last ? sd : last;
  }
  if (ix->num_slots == 0) {
    return a.fail(Error::InvalidArgument, "indices must contain at least one tensor");
  }
  // Broadcast the slot shapes (right-aligned).
  Shape& b = ix->index_shape;
  b.dim = 0;
  for (size_t s = 0; s < ix->num_slots; ++s) {
    b.dim = slot_dims[s] > b.dim ? slot_dims[s] : b.dim;
  }
  for (size_t j = 0; j < b.dim; ++j) {
    b.sizes[j] = 1;
  }
  for (size_t s = 0; s < ix->num_slots; ++s) {
    const size_t lead = b.dim - slot_dims[s];
    for (size_t j = 0; j < slot_dims[s]; ++j) {
      SizesType& o = b.sizes[lead + j];
      const SizesType v = slot_sizes[s][j];
      if (v == o || v == 1) {
        continue;
      }
      if (o != 1) {
        return a.fail(Error::InvalidArgument,
                      "shape mismatch: indexing tensors could not be broadcast "
                      "together (%d vs %d)", int(o), int(v));
      }
      o = v;
    }
  }
  for (size_t s = 0; s < ix->num_slots; ++s) {
    const size_t lead = b.dim - slot_dims[s];
    for (size_t j = 0; j < b.dim; ++j) {
      ix->slots[s].strides[j] =
          (j < lead || slot_sizes[s][j - lead] == 1) ? 0 : slot_strides[s][j - lead];
    }
  }
  // Result layout.
  Shape& r = ix->result;
  r.dim = 0;
  const size_t rest = nd - ix->num_slots;
  if (rest + b.dim > kMaxTensorDim) {
    return a.fail(Error::InvalidArgument, "indexing result has too many dims");
  }
  auto push_self = [&](size_t sd) {
    ix->self_dim_of[r.dim] = sd;
    r.sizes[r.dim++] = self.sizes()[sd];
  };
  auto push_index = [&]() {
    for (size_t j = 0; j < b.dim; ++j) {
      ix->self_dim_of[r.dim] = AdvancedIndex::kIndexDim;
      ix->index_dim_of[r.dim] = j;
      r.sizes[r.dim++] = b.sizes[j];
    }
  };
  if (adjacent) {
    for (size_t sd = 0; sd < first; ++sd) push_self(sd);
    push_index();
    for (size_t sd = last + 1; sd < nd; ++sd) push_self(sd);
  } else {
    push_index();
    for (size_t sd = 0; sd < nd; ++sd) {
      if (!indexed[sd]) push_self(sd);
    }
  }
  return true;
}

}  // namespace ember
