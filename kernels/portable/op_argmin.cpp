// aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *,
//                  Tensor(a!) out)
// The index of the first minimum along `dim` (None: of the flattened
// input), a NaN winning (the first NaN). out is Long. Contiguous tensors;
// a zero-size reduction is refused.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void argmin_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::argmin.out", 5);
  const Tensor self = a.tensor(0);
  const Optional<int64_t> dim = a.optional_int(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (out.scalar_type() != ScalarType::Long) {
    a.fail(Error::InvalidArgument, "out must be Long, got %s",
           scalar_type_name(out.scalar_type()));
    return;
  }
  DimSplit split;
  if (!dim_prologue(a, self, dim, keepdim, &out, 1, true, &split)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    arg_reduce<T, false>(split, self.const_data_ptr<T>(), nullptr,
                      out.mutable_data_ptr<int64_t>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::argmin.out", argmin_out_boxed);

}  // namespace ember
