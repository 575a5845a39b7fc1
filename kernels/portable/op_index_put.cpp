// aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values,
//                     bool accumulate=False, *, Tensor(a!) out)
// aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values,
//                  bool accumulate=False) -> Tensor(a!)
// out = self, then out[indices] = values (or += with accumulate), values
// broadcast to the indexing result's shape and of self's dtype. With
// repeated indices and no accumulate the last write wins.
#include <type_traits>

#include "kernels/portable/util/advanced_index.h"
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/index_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// Writes values into dst (already holding self) at the indexed positions.
void put(KernelArgs& a, KernelContext& ctx, Tensor dst,
         Span<Optional<Tensor>> indices, Tensor values, bool accumulate) {
  AdvancedIndex ix;
  if (!check_same_dtype(a, dst, values) ||
      !prepare_advanced_index(a, ctx, dst, indices, &ix) ||
      !check_indices_apart_from_out(a, indices, dst)) {
    return;
  }
  if (!broadcasts_to(values.sizes(), ix.result.span())) {
    a.fail(Error::InvalidArgument,
           "values (%zu dims) do not broadcast to the indexed shape (%zu dims)",
           values.dim(), ix.result.dim);
    return;
  }
  // values' element offset for each result coordinate: broadcast strides.
  int64_t vstrides[1][kMaxTensorDim];
  const size_t lead = ix.result.dim - values.dim();
  for (size_t r = 0; r < ix.result.dim; ++r) {
    vstrides[0][r] = (r < lead || values.sizes()[r - lead] == 1)
                         ? 0
                         : values.strides()[r - lead];
  }
  Odometer<1> walk(ix.result.sizes, ix.result.dim, vstrides);
  (void)visit_storage_dtype(dst.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = values.const_data_ptr<T>();
    T* o = dst.mutable_data_ptr<T>();
    for_each_advanced_index(ix, [&](int64_t, int64_t offset) {
      const T x = load_element(v + walk.offsets()[0]);
      walk.next();
      if (!accumulate) {
        o[offset] = x;
      } else if constexpr (is_reduced_float_v<T>) {
        o[offset] = T(float(o[offset]) + float(x));
      } else {
        o[offset] = add_values(load_element(o + offset), x);  // integers wrap like PyTorch
      }
    });
  });
}

void index_put_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::index_put.out", 6);
  const Tensor self = a.tensor(0);
  const Span<Optional<Tensor>> indices = a.optional_tensor_list(1);
  const Tensor values = a.tensor(2);
  const bool accumulate = a.bool_value(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !resize_out(a, out, self.sizes()) || !copy_broadcast(a, self, out)) {
    return;
  }
  put(a, ctx, out, indices, values, accumulate);
}

void index_put__boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::index_put_", 5);
  const Tensor self = a.tensor(0);
  const Span<Optional<Tensor>> indices = a.optional_tensor_list(1);
  const Tensor values = a.tensor(2);
  const bool accumulate = a.bool_value(3);
  (void)a.tensor(4);
  if (!a.ok() || !check_supported_dtype(a, self, "self")) {
    return;
  }
  put(a, ctx, self, indices, values, accumulate);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::index_put.out", index_put_out_boxed);
EMBER_REGISTER_KERNEL("aten::index_put_", index_put__boxed);

}  // namespace ember
