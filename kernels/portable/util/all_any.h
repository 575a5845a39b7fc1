// Shared bodies of all and any: each operator's file registers these
// kernels with kAll = true (all) or false (any), so only its own is
// instantiated there:
//   <op>.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
//   <op>.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
//                 Tensor(a!) out)        None = all dims, [] = none
//   <op>.all_out(Tensor self, *, Tensor(a!) out)
// all: every element nonzero; any: some element nonzero (NaN counts as
// nonzero). out is Bool, or Byte (PyTorch's result for a Byte self).
// Contiguous tensors.
//
// The kernels are prepared (docs/custom_kernels.md): Prepared calls skip
// the dtype and contiguity checks; dim, dims and keepdim are values,
// checked at every call, and out's shape only compared (reduce_prologue).
#pragma once

#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

template <bool kAll>
void all_any_run(KernelArgs& a, KernelContext& ctx, Tensor self,
                 Optional<Span<int64_t>> dims, bool keepdim, Tensor out,
                 bool empty_means_all) {
  if (!a.ok()) {
    return;
  }
  if (!a.prepared() && out.scalar_type() != ScalarType::Bool &&
      out.scalar_type() != ScalarType::Byte) {
    a.fail(Error::InvalidArgument, "out must be Bool or Byte, got %s",
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan, empty_means_all) ||
      !checks_done(a)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)reduce_contiguous<T, bool>(
        a, ctx, plan, self.const_data_ptr<T>(), out, kAll,
        [](bool x, bool y) { return kAll ? x && y : x || y; }, [](bool v) { return v; });
  });
}

// <op>.out: one dim.
template <bool kAll>
void all_any_dim_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kAll ? "aten::all.out" : "aten::any.out", 5);
  int64_t dim = a.int_value(1);
  all_any_run<kAll>(a, ctx, a.tensor(0), Optional<Span<int64_t>>(Span<int64_t>(&dim, 1)),
                    a.bool_value(2), a.tensor(3), true);
}

// <op>.dims_out: a list of dims (None = all, [] = none).
template <bool kAll>
void all_any_dims_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kAll ? "aten::all.dims_out" : "aten::any.dims_out", 5);
  all_any_run<kAll>(a, ctx, a.tensor(0), a.optional_int_list(1), a.bool_value(2),
                    a.tensor(3), false);
}

// <op>.all_out: every element.
template <bool kAll>
void all_any_all_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kAll ? "aten::all.all_out" : "aten::any.all_out", 3);
  all_any_run<kAll>(a, ctx, a.tensor(0), {}, false, a.tensor(1), true);
}

}  // namespace ember
