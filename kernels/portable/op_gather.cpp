// aten::gather.out(Tensor self, int dim, Tensor index, *,
//                  bool sparse_grad=False, Tensor(a!) out)
// out[i][j][k] = self[index[i][j][k]][j][k] (for dim 0), out shaped like
// index. Any dim orders; out-of-range indices are an error.
#include "kernels/portable/util/scatter_gather_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void gather_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::gather.out", 6);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Tensor index = a.tensor(2);
  (void)a.bool_value(3);
  const Tensor out = a.tensor(4);
  size_t d;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !normalize_dim(a, dim, self.dim(), "dim", &d) ||
      !check_scatter_gather(a, self, d, index, nullptr) ||
      !resize_out(a, out, index.sizes()) ||
      !check_index_apart_from_out(a, index, out, "index")) {
    return;
  }
  (void)visit_element_width(self.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* src = static_cast<const W*>(self.const_data_ptr());
    W* dst = static_cast<W*>(out.mutable_data_ptr());
    // out has index's shape; walk index and write out at the same coordinate
    // through out's strides (which may differ from index's).
    const size_t nd = index.dim();
    int64_t strides[1][kMaxTensorDim];
    for (size_t k = 0; k < nd; ++k) {
      strides[0][k] = out.strides()[k];
    }
    Odometer<1> out_walk(index.sizes().data(), nd, strides);
    for_each_scatter_gather(self, d, index, nullptr,
                            [&](int64_t s, int64_t, int64_t) {
                              dst[out_walk.offsets()[0]] = src[s];
                              out_walk.next();
                            });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::gather.out", gather_out_boxed);

}  // namespace ember
