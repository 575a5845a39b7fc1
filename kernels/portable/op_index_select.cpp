// aten::index_select.out(Tensor self, int dim, Tensor index, *,
//                        Tensor(a!) out)
// out = self with dim `dim` replaced by self[..., index[i], ...]. index is a
// 1-D (or zero-dim) Long/Int tensor with entries in [0, size) (negative
// ones are out of range, as in PyTorch); a bad entry is an error (checked before anything is written).
// self and out contiguous.
#include <cstring>

#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void index_select_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::index_select.out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor index = a.tensor(2);
  const Tensor out = a.tensor(3);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_index_tensor(a, index, "index") ||
      !check_contiguous(a, self, "self") || !check_contiguous(a, out, "out") ||
      !normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  if (index.dim() > 1) {
    a.fail(Error::InvalidArgument, "index must be 0-D or 1-D, got %zu dims",
           index.dim());
    return;
  }
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
  const int64_t n = index.numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = index_value(index.const_data_ptr(), index.scalar_type(), i);
    if (v < 0 || v >= size) {  // PyTorch rejects negative indices here
      a.fail(Error::InvalidArgument, "index %lld is out of bounds for dim %zu with size %lld",
             static_cast<long long>(v), d, static_cast<long long>(size));
      return;
    }
  }
  Shape shape = shape_of(self);
  if (self.dim() > 0) {
    shape.sizes[d] = SizesType(n);
  } else if (n != 1) {
    a.fail(Error::InvalidArgument, "index of a zero-dim tensor must have one entry");
    return;
  }
  if (!resize_out(a, out, shape.span()) || out.numel() == 0 ||
      !check_index_apart_from_out(a, index, out, "index")) {
    return;
  }
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < self.dim(); ++k) {
    if (k < d) outer *= self.sizes()[k];
    if (k > d) inner *= self.sizes()[k];
  }
  const size_t row = size_t(inner) * self.element_size();
  const char* src = static_cast<const char*>(self.const_data_ptr());
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = index_value(index.const_data_ptr(), index.scalar_type(), i);
      std::memmove(dst + size_t(o * n + i) * row, src + size_t(o * size + v) * row, row);
    }
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::index_select.out", index_select_out_boxed);

}  // namespace ember
