// aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *,
//                       Tensor(a!) out)
// out = self, then out[index[i][j]][j] += src[i][j] (dim 0), in index's
// row-major order. Half and BFloat16 add in float; Bool adds as "or".
#include <type_traits>

#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/scatter_gather_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void scatter_add_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::scatter_add.out", 6);
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
  (void)visit_storage_dtype(out.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = src.const_data_ptr<T>();
    T* o = out.mutable_data_ptr<T>();
    for_each_scatter_gather(out, d, index, &src, [&](int64_t oo, int64_t, int64_t so) {
      if constexpr (is_reduced_float_v<T>) {
        o[oo] = T(float(o[oo]) + float(s[so]));
      } else {
        // Bool ors (bytes read as bytes); integers wrap like PyTorch.
        o[oo] = add_values(load_element(o + oo), load_element(s + so));
      }
    });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::scatter_add.out", scatter_add_out_boxed);

}  // namespace ember
