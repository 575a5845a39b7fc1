// aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *,
//               Tensor(a!) out)
// The maximum over `dim` ([] = all dims); NaN propagates. out has self's
// dtype; self and out contiguous. A zero-size reduction is refused.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void amax_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::amax.out", 5);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, Optional<Span<int64_t>>(dims), keepdim, out,
                       true, &plan)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    const T* in = self.const_data_ptr<T>();
    (void)reduce_contiguous<T, C>(
        a, ctx, plan, in, out, lowest_value<C>(),
        [](C x, C y) { return max_propagate_nan(x, y); }, [](C v) { return v; });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::amax.out", amax_out_boxed);

}  // namespace ember
