// aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
// aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
//                   Tensor(a!) out)
// aten::any.all_out(Tensor self, *, Tensor(a!) out)
// true if any element is nonzero (NaN counts as nonzero) over one dim, a list of dims
// (None = all, [] = none) or everything. out is Bool, or Byte (PyTorch's result
// for a Byte self). Contiguous tensors.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_any(KernelArgs& a, KernelContext& ctx, Tensor self,
            Optional<Span<int64_t>> dims, bool keepdim, Tensor out,
            bool empty_means_all) {
  if (!a.ok()) {
    return;
  }
  if (out.scalar_type() != ScalarType::Bool &&
      out.scalar_type() != ScalarType::Byte) {
    a.fail(Error::InvalidArgument, "out must be Bool or Byte, got %s",
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan,
                       empty_means_all)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, bool>(
        a, ctx, plan, self.const_data_ptr<T>(), out, false,
        [](bool x, bool y) { return x || y; }, [](bool v) { return v; });
  });
}

void any_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::any.out", 5);
  const Tensor self = a.tensor(0);
  int64_t dim = a.int_value(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  run_any(a, ctx, self, Optional<Span<int64_t>>(Span<int64_t>(&dim, 1)), keepdim,
         out, true);
}

void any_dims_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::any.dims_out", 5);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  run_any(a, ctx, self, dims, keepdim, out, false);
}

void any_all_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::any.all_out", 3);
  const Tensor self = a.tensor(0);
  const Tensor out = a.tensor(1);
  run_any(a, ctx, self, {}, false, out, true);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::any.out", any_out_boxed);
EMBER_REGISTER_KERNEL("aten::any.dims_out", any_dims_out_boxed);
EMBER_REGISTER_KERNEL("aten::any.all_out", any_all_out_boxed);

}  // namespace ember
