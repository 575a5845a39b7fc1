// aten::all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
// aten::all.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
//                   Tensor(a!) out)
// aten::all.all_out(Tensor self, *, Tensor(a!) out)
// true if every element is nonzero (NaN counts as nonzero) over one dim, a list of dims
// (None = all, [] = none) or everything. out is Bool, or Byte (PyTorch's result
// for a Byte self). Contiguous tensors.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void run_all(KernelArgs& a, KernelContext& ctx, Tensor self,
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
        a, ctx, plan, self.const_data_ptr<T>(), out, true,
        [](bool x, bool y) { return x && y; }, [](bool v) { return v; });
  });
}

void all_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::all.out", 5);
  const Tensor self = a.tensor(0);
  int64_t dim = a.int_value(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  run_all(a, ctx, self, Optional<Span<int64_t>>(Span<int64_t>(&dim, 1)), keepdim,
         out, true);
}

void all_dims_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::all.dims_out", 5);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  run_all(a, ctx, self, dims, keepdim, out, false);
}

void all_all_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::all.all_out", 3);
  const Tensor self = a.tensor(0);
  const Tensor out = a.tensor(1);
  run_all(a, ctx, self, {}, false, out, true);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::all.out", all_out_boxed);
EMBER_REGISTER_KERNEL("aten::all.dims_out", all_dims_out_boxed);
EMBER_REGISTER_KERNEL("aten::all.all_out", all_all_out_boxed);

}  // namespace ember
