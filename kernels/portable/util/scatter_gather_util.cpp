#include "kernels/portable/util/scatter_gather_util.h"

namespace ember {

namespace {
size_t effective_dim(Tensor t) { return t.dim() == 0 ? 1 : t.dim(); }
int64_t size_at(Tensor t, size_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }
}  // namespace

bool check_scatter_gather(KernelArgs& a, Tensor self, size_t dim, Tensor index,
                          const Tensor* src) {
  if (!check_index_tensor(a, index, "index")) {
    return false;
  }
  if (index.numel() == 0) {
    return true;
  }
  if (effective_dim(index) != effective_dim(self)) {
    return a.fail(Error::InvalidArgument,
                  "index has %zu dims but self has %zu", index.dim(), self.dim());
  }
  if (src != nullptr && effective_dim(*src) != effective_dim(self)) {
    return a.fail(Error::InvalidArgument,
                  "src has %zu dims but self has %zu", src->dim(), self.dim());
  }
  for (size_t d = 0; d < effective_dim(self); ++d) {
    const int64_t is = size_at(index, d);
    if (d != dim && is > size_at(self, d)) {
      return a.fail(Error::InvalidArgument,
                    "index size %lld at dim %zu exceeds self's %lld",
                    static_cast<long long>(is), d,
                    static_cast<long long>(size_at(self, d)));
    }
    if (src != nullptr && is > size_at(*src, d)) {
      return a.fail(Error::InvalidArgument,
                    "index size %lld at dim %zu exceeds src's %lld",
                    static_cast<long long>(is), d,
                    static_cast<long long>(size_at(*src, d)));
    }
  }
  // Every stored entry (index's storage holds exactly numel elements); as
  // in PyTorch, negative indices are out of range here.
  const int64_t size = size_at(self, dim);
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t v = index_value(index.const_data_ptr(), index.scalar_type(), i);
    if (v < 0 || v >= size) {
      return a.fail(Error::InvalidArgument,
                    "index %lld is out of bounds for dim %zu with size %lld",
                    static_cast<long long>(v), dim, static_cast<long long>(size));
    }
  }
  return true;
}

}  // namespace ember
