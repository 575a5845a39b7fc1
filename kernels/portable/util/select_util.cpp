#include "kernels/portable/util/select_util.h"

#include "kernels/portable/util/index_util.h"

namespace ember {

bool select_view(KernelArgs& a, Tensor t, int64_t dim, int64_t index, SelectView* v) {
  if (t.dim() == 0) {
    return a.fail(Error::InvalidArgument, "select() cannot be applied to a zero-dim tensor");
  }
  if (!normalize_dim(a, dim, t.dim(), "dim", &v->dim) ||
      !normalize_index(a, index, t.sizes()[v->dim], v->dim, "index", &v->index)) {
    return false;
  }
  v->shape = Shape();
  for (size_t k = 0; k < t.dim(); ++k) {
    if (k != v->dim) {
      v->strides[v->shape.dim] = t.strides()[k];
      v->shape.sizes[v->shape.dim++] = t.sizes()[k];
    }
  }
  v->byte_offset = v->index * t.strides()[v->dim] * int64_t(t.element_size());
  return true;
}

}  // namespace ember
