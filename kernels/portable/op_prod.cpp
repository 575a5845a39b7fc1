// aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out)
// aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *,
//                    ScalarType? dtype=None, Tensor(a!) out)
// Product over all dims or one dim. Accumulates in double for a floating
// out and in int64 (wrapping) otherwise; an empty product is 1. A given
// dtype must equal out's. self and out contiguous.
#include "kernels/portable/util/sum_prod.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void prod_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::prod.out", 4);
  sum_prod_run<true>(a, ctx, a.tensor(0), {}, false, a.optional_enum(1), a.tensor(2));
}

void prod_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::prod.int_out", 6);
  int64_t dim = a.int_value(1);
  sum_prod_run<true>(a, ctx, a.tensor(0), Optional<Span<int64_t>>(Span<int64_t>(&dim, 1)),
                     a.bool_value(2), a.optional_enum(3), a.tensor(4));
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::prod.out", prod_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::prod.int_out", prod_int_out_boxed);

}  // namespace ember
