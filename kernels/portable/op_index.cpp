// aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out)
// Advanced indexing: self[i0, None, i2, mask, ...] (see advanced_index.h).
// out contiguous; self any dim order. Out-of-range indices are an error.
#include "kernels/portable/util/advanced_index.h"
#include "kernels/portable/util/index_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void index_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::index.Tensor_out", 4);
  const Tensor self = a.tensor(0);
  const Span<Optional<Tensor>> indices = a.optional_tensor_list(1);
  const Tensor out = a.tensor(2);
  AdvancedIndex ix;
  if (!a.ok() || !check_same_dtype(a, self, out) ||
      !check_contiguous(a, out, "out") ||
      !prepare_advanced_index(a, ctx, self, indices, &ix) ||
      !resize_out(a, out, ix.result.span()) ||
      !check_indices_apart_from_out(a, indices, out)) {
    return;
  }
  (void)visit_element_width(self.element_size(), [&](auto w) {
    using W = typename decltype(w)::type;
    const W* src = static_cast<const W*>(self.const_data_ptr());
    W* dst = static_cast<W*>(out.mutable_data_ptr());
    for_each_advanced_index(ix, [&](int64_t i, int64_t offset) { dst[i] = src[offset]; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::index.Tensor_out", index_tensor_out_boxed);

}  // namespace ember
