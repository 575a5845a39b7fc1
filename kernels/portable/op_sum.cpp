// aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *,
//                       ScalarType? dtype=None, Tensor(a!) out)
// Sums over `dim` (None or [] = all dims). Accumulates in double for a
// floating out and in int64 (wrapping) otherwise; the total is cast to out's
// dtype. A given dtype must equal out's. self and out must be contiguous.
#include "kernels/portable/util/sum_prod.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void sum_intlist_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::sum.IntList_out", 6);
  sum_prod_run<false>(a, ctx, a.tensor(0), a.optional_int_list(1), a.bool_value(2),
                      a.optional_enum(3), a.tensor(4));
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::sum.IntList_out", sum_intlist_out_boxed);

}  // namespace ember
