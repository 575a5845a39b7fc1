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

// Prepare, in phases: read the index list into slots (parse and check each
// entry), check which self dims the slots index, broadcast the slots'
// shapes, then lay out the result's dims.

// The index tensors' own shapes and strides, one per slot, before they are
// broadcast together.
struct SlotShapes {
  SizesType sizes[kMaxTensorDim][kMaxTensorDim];
  size_t dims[kMaxTensorDim];
  int64_t strides[kMaxTensorDim][kMaxTensorDim];
};

// The self dims the slots index, the first and last of them, and whether
// they are consecutive (which decides where the index dims go).
struct IndexedDims {
  bool indexed[kMaxTensorDim] = {};
  size_t first = 0;
  size_t last = 0;
  bool adjacent = true;
};

bool fail_too_many_indices(KernelArgs& a, size_t nd) {
  return a.fail(Error::InvalidArgument, "too many indices for a tensor of %zu dims", nd);
}

void copy_self_layout(Tensor self, AdvancedIndex* ix) {
  for (size_t d = 0; d < self.dim(); ++d) {
    ix->self_sizes[d] = self.sizes()[d];
    ix->self_strides[d] = self.strides()[d];
  }
}

// A mask indexes dims [d, d + its dim) of self and must match their sizes.
bool check_mask_shape(KernelArgs& a, Tensor self, Tensor mask, size_t d) {
  const size_t nd = self.dim();
  const size_t k = mask.dim();
  if (d + k > nd) {
    return fail_too_many_indices(a, nd);
  }
  for (size_t j = 0; j < k; ++j) {
    if (mask.sizes()[j] != self.sizes()[d + j]) {
      return a.fail(Error::InvalidArgument,
                    "mask shape does not match self at dim %zu (%d vs %d)",
                    d + j, int(mask.sizes()[j]), int(self.sizes()[d + j]));
    }
  }
  return true;
}

// The number of set entries of a mask and their coordinates, in temp
// memory, dim-major: (*coords)[j * nnz + p] is coordinate j of the p-th set
// entry. *coords stays null when there are none or the mask is zero-dim.
bool mask_coordinates(KernelArgs& a, KernelContext& ctx, Tensor mask, int64_t* nnz_out,
                      int64_t** coords_out) {
  const size_t k = mask.dim();
  int64_t nnz = 0;
  for_each_row_major(mask, [&](int64_t off, const int64_t*) { nnz += mask_value(mask, off); });
  *nnz_out = nnz;
  *coords_out = nullptr;
  if (nnz == 0 || k == 0) {
    return true;
  }
  int64_t* coords =
      static_cast<int64_t*>(ctx.allocate_temp(size_t(nnz) * k * sizeof(int64_t)));
  if (coords == nullptr) {
    return a.fail(Error::MemoryAllocationFailed, "no temp memory for a mask's %lld coordinates",
                  static_cast<long long>(nnz));
  }
  int64_t p = 0;
  for_each_row_major(mask, [&](int64_t off, const int64_t* c) {
    if (mask_value(mask, off)) {
      for (size_t j = 0; j < k; ++j) {
        coords[int64_t(j) * nnz + p] = c[j];
      }
      ++p;
    }
  });
  *coords_out = coords;
  return true;
}

// One Long slot per mask dim, each reading one row of the coordinates.
void add_mask_slots(size_t d, size_t k, int64_t nnz, const int64_t* coords,
                    AdvancedIndex* ix, SlotShapes* shapes) {
  for (size_t j = 0; j < k; ++j) {
    const size_t s = ix->num_slots++;
    ix->slots[s].self_dim = d + j;
    ix->slots[s].data = coords == nullptr ? nullptr : coords + int64_t(j) * nnz;
    ix->slots[s].type = ScalarType::Long;
    shapes->dims[s] = 1;
    shapes->sizes[s][0] = SizesType(nnz);
    shapes->strides[s][0] = 1;
  }
}

// A Bool/Byte mask at self dim *d: its nonzero coordinates become slots.
bool read_mask(KernelArgs& a, KernelContext& ctx, Tensor self, Tensor mask, size_t* d,
               AdvancedIndex* ix, SlotShapes* shapes) {
  if (!check_mask_shape(a, self, mask, *d)) {
    return false;
  }
  int64_t nnz = 0;
  int64_t* coords = nullptr;
  if (!mask_coordinates(a, ctx, mask, &nnz, &coords)) {
    return false;
  }
  const size_t k = mask.dim();
  if (k == 0) {
    // A zero-dim mask adds a dim of size nnz (0 or 1) in PyTorch; not
    // needed by exported programs.
    return a.fail(Error::NotSupported, "zero-dim mask indices are not supported");
  }
  add_mask_slots(*d, k, nnz, coords, ix, shapes);
  *d += k;
  return true;
}

// Every value of index tensor t must be in [-size, size) for self dim d.
bool check_index_values(KernelArgs& a, Tensor t, int64_t size, size_t d) {
  for (int64_t e = 0; e < t.numel(); ++e) {
    int64_t v;
    if (!normalize_index(a, index_value(t.const_data_ptr(), t.scalar_type(), e), size, d,
                         "index", &v)) {
      return false;
    }
  }
  return true;
}

// A Long/Int index tensor at self dim *d: one slot, values checked now.
bool read_index_tensor(KernelArgs& a, Tensor self, Tensor t, size_t* d, AdvancedIndex* ix,
                       SlotShapes* shapes) {
  if (!check_index_tensor(a, t, "indices entry")) {
    return false;
  }
  if (*d >= self.dim()) {
    return fail_too_many_indices(a, self.dim());
  }
  const size_t s = ix->num_slots++;
  ix->slots[s].self_dim = *d;
  ix->slots[s].data = t.const_data_ptr();
  ix->slots[s].type = t.scalar_type();
  shapes->dims[s] = t.dim();
  for (size_t j = 0; j < t.dim(); ++j) {
    shapes->sizes[s][j] = t.sizes()[j];
    shapes->strides[s][j] = t.strides()[j];
  }
  if (!check_index_values(a, t, self.sizes()[*d], *d)) {
    return false;
  }
  ++*d;
  return true;
}

// Parse: the index list into slots (None skips a self dim).
bool read_index_list(KernelArgs& a, KernelContext& ctx, Tensor self,
                     Span<Optional<Tensor>> indices, AdvancedIndex* ix, SlotShapes* shapes) {
  const size_t nd = self.dim();
  size_t d = 0;  // next self dim
  ix->num_slots = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (!indices[i].has_value()) {
      ++d;
      if (d > nd) {
        return fail_too_many_indices(a, nd);
      }
      continue;
    }
    const Tensor t = indices[i].value();
    if (!(is_mask(t) ? read_mask(a, ctx, self, t, &d, ix, shapes)
                     : read_index_tensor(a, self, t, &d, ix, shapes))) {
      return false;
    }
  }
  return true;
}

// Check: each self dim indexed at most once, at least one slot.
bool find_indexed_dims(KernelArgs& a, const AdvancedIndex& ix, size_t nd, IndexedDims* dims) {
  dims->first = nd;
  dims->last = 0;
  for (size_t s = 0; s < ix.num_slots; ++s) {
    const size_t sd = ix.slots[s].self_dim;
    if (dims->indexed[sd]) {
      return a.fail(Error::Internal, "dim %zu indexed twice", sd);
    }
    dims->indexed[sd] = true;
    if (s > 0 && sd != ix.slots[s - 1].self_dim + 1) {
      dims->adjacent = false;
    }
    dims->first = sd < dims->first ? sd : dims->first;
    dims->last = sd > dims->last ? sd : dims->last;
  }
  if (ix.num_slots == 0) {
    return a.fail(Error::InvalidArgument, "indices must contain at least one tensor");
  }
  return true;
}

// Shapes: the slot shapes broadcast together (right-aligned).
bool broadcast_index_shape(KernelArgs& a, const SlotShapes& shapes, AdvancedIndex* ix) {
  Shape& b = ix->index_shape;
  b.dim = 0;
  for (size_t s = 0; s < ix->num_slots; ++s) {
    b.dim = shapes.dims[s] > b.dim ? shapes.dims[s] : b.dim;
  }
  for (size_t j = 0; j < b.dim; ++j) {
    b.sizes[j] = 1;
  }
  for (size_t s = 0; s < ix->num_slots; ++s) {
    const size_t lead = b.dim - shapes.dims[s];
    for (size_t j = 0; j < shapes.dims[s]; ++j) {
      SizesType& o = b.sizes[lead + j];
      const SizesType v = shapes.sizes[s][j];
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
  return true;
}

// Each slot's strides over the broadcast index shape (0 where it broadcasts).
void set_broadcast_strides(const SlotShapes& shapes, AdvancedIndex* ix) {
  const Shape& b = ix->index_shape;
  for (size_t s = 0; s < ix->num_slots; ++s) {
    const size_t lead = b.dim - shapes.dims[s];
    for (size_t j = 0; j < b.dim; ++j) {
      ix->slots[s].strides[j] = (j < lead || shapes.sizes[s][j - lead] == 1)
                                    ? 0
                                    : shapes.strides[s][j - lead];
    }
  }
}

void push_self_dim(Tensor self, size_t sd, AdvancedIndex* ix) {
  Shape& r = ix->result;
  ix->self_dim_of[r.dim] = sd;
  r.sizes[r.dim++] = self.sizes()[sd];
}

void push_index_dims(AdvancedIndex* ix) {
  Shape& r = ix->result;
  const Shape& b = ix->index_shape;
  for (size_t j = 0; j < b.dim; ++j) {
    ix->self_dim_of[r.dim] = AdvancedIndex::kIndexDim;
    ix->index_dim_of[r.dim] = j;
    r.sizes[r.dim++] = b.sizes[j];
  }
}

// Shapes: the result's dims. The index dims replace the indexed self dims
// when those are adjacent, and go in front otherwise (PyTorch's rule).
bool lay_out_result(KernelArgs& a, Tensor self, const IndexedDims& dims, AdvancedIndex* ix) {
  const size_t nd = self.dim();
  ix->result.dim = 0;
  const size_t rest = nd - ix->num_slots;
  if (rest + ix->index_shape.dim > kMaxTensorDim) {
    return a.fail(Error::InvalidArgument, "indexing result has too many dims");
  }
  if (dims.adjacent) {
    for (size_t sd = 0; sd < dims.first; ++sd) push_self_dim(self, sd, ix);
    push_index_dims(ix);
    for (size_t sd = dims.last + 1; sd < nd; ++sd) push_self_dim(self, sd, ix);
  } else {
    push_index_dims(ix);
    for (size_t sd = 0; sd < nd; ++sd) {
      if (!dims.indexed[sd]) push_self_dim(self, sd, ix);
    }
  }
  return true;
}

}  // namespace

bool prepare_advanced_index(KernelArgs& a, KernelContext& ctx, Tensor self,
                            Span<Optional<Tensor>> indices, AdvancedIndex* ix) {
  copy_self_layout(self, ix);
  SlotShapes shapes;
  if (!read_index_list(a, ctx, self, indices, ix, &shapes)) {
    return false;
  }
  IndexedDims dims;
  if (!find_indexed_dims(a, *ix, self.dim(), &dims) ||
      !broadcast_index_shape(a, shapes, ix)) {
    return false;
  }
  set_broadcast_strides(shapes, ix);
  return lay_out_result(a, self, dims, ix);
}

}  // namespace ember
