// aten::_softmax.out(Tensor self, int dim, bool half_to_float, *,
//                  Tensor(a!) out)
// exp(x - max) / sum(exp(x - max)) along `dim`, computed in float (double for Double). half_to_float
// must be false (as upstream). Floating dtypes; out has self's dtype;
// contiguous tensors.
#include "kernels/portable/util/softmax.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void softmax_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_softmax.out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const bool half_to_float = a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !require_floating(a, self, "self") ||
      !check_same_dtype(a, self, out)) {
    return;
  }
  if (half_to_float) {
    a.fail(Error::NotSupported, "half_to_float = true is not supported");
    return;
  }
  DimSplit split;
  if (!dim_prologue(a, self, Optional<int64_t>(dim), true, nullptr, 0, false,
                    &split) ||
      !check_contiguous(a, out, "out") ||
      !resize_out(a, out, shape_of(self).span())) {
    return;
  }
  visit_float_double_half_bfloat16_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    softmax_slices<T, false>(split, self.const_data_ptr<T>(),
                          out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_softmax.out", softmax_out_boxed);

}  // namespace ember
