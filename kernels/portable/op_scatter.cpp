// aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *,
//                       Tensor(a!) out)
// aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value,
//                         *, Tensor(a!) out)
// out = self, then out[index[i][j]][j] = src[i][j] (dim 0) or value. With
// repeated indices the last write wins (PyTorch leaves it unspecified).
#include <cstring>

#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/scatter_gather_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void scatter_src_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::scatter.src_out", 6);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor index = a.tensor(2);
  const Tensor src = a.tensor(3);
  const Tensor out = a.tensor(4);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_same_dtype(a, self, src) ||
      !normalize_dim(a, dim, self.dim(), "dim", &d) ||
      !check_scatter_gather(a, self, d, index, &src) ||
      !resize_out(a, out, self.sizes()) ||
      !check_index_apart_from_out(a, index, out, "index") ||
      !copy_broadcast(a, self, out)) {
    return;
  }
  (void)visit_element_width(out.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* s = static_cast<const W*>(src.const_data_ptr());
    W* o = static_cast<W*>(out.mutable_data_ptr());
    for_each_scatter_gather(out, d, index, &src,
                            [&](int64_t oo, int64_t, int64_t so) { o[oo] = s[so]; });
  });
}

void scatter_value_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::scatter.value_out", 6);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor index = a.tensor(2);
  const Scalar value = a.scalar(3);
  const Tensor out = a.tensor(4);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !normalize_dim(a, dim, self.dim(), "dim", &d) ||
      !check_scatter_gather(a, self, d, index, nullptr) ||
      !resize_out(a, out, self.sizes()) ||
      !check_index_apart_from_out(a, index, out, "index")) {
    return;
  }
  // The value, cast to out's dtype, through a one-element tensor.
  alignas(8) unsigned char cell[8] = {};
  SizesType one_size[1] = {1};
  DimOrderType one_order[1] = {0};
  StridesType one_stride[1] = {1};
  TensorImpl one(out.scalar_type(), 1, one_size, cell, one_order, one_stride);
  if (!fill_with_scalar(a, Tensor(&one), value) || !copy_broadcast(a, self, out)) {
    return;
  }
  (void)visit_element_width(out.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    W v;
    std::memmove(&v, cell, sizeof(W));
    W* o = static_cast<W*>(out.mutable_data_ptr());
    for_each_scatter_gather(out, d, index, nullptr,
                            [&](int64_t oo, int64_t, int64_t) { o[oo] = v; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::scatter.src_out", scatter_src_out_boxed);
EMBER_REGISTER_KERNEL("aten::scatter.value_out", scatter_value_out_boxed);

}  // namespace ember
