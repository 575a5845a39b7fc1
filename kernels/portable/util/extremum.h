// Shared bodies of the max/min operator family: max.dim_max / min.dim_min,
// max.unary_out / min.unary_out, amax.out / amin.out, argmax.out /
// argmin.out. Each operator's file registers the kernels with kMax = true
// (maximum) or false (minimum), so only that direction is instantiated
// there; the kernels know their operators' names (for messages).
//
// extremum_dim_kernel: [self, dim, keepdim, values, indices] then the
//   return (one tuple value, 6 args, or the two tensors, 7): the extremum
//   along `dim` and the index of its first occurrence (the first NaN wins).
//   values has self's dtype, indices is Long.
// extremum_all_kernel: [self, out, ret]: the extremum of all elements (NaN
//   propagates); an empty input is refused.
// extremum_dims_kernel: [self, dim[], keepdim, out, ret]: over `dim` ([] =
//   all dims); NaN propagates; a zero-size reduction is refused.
// arg_extremum_kernel: [self, dim?, keepdim, out, ret]: the index of the
//   first extremum along `dim` (None: of the flattened input), a NaN
//   winning; out is Long.
// All need contiguous tensors (see reduce_ops.h).
//
// All are prepared kernels (docs/custom_kernels.md): Prepared calls skip
// the dtype and contiguity checks; dim, dims and keepdim are values, so
// the plan, its checks (dims in range, a zero-size reduction) and out's
// shape are computed at every call and out's shape only compared
// (reduce_prologue, dim_prologue).
#pragma once

#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// The fold of an extremum that propagates NaN, and its identity.
template <bool kMax, typename C>
inline C extremum_identity() {
  return kMax ? lowest_value<C>() : highest_value<C>();
}

template <bool kMax, typename C>
inline C extremum_fold(C x, C y) {
  return kMax ? max_propagate_nan(x, y) : min_propagate_nan(x, y);
}

// Fails unless `t` is Long (an index output).
inline bool require_long(KernelArgs& a, Tensor t, const char* what) {
  if (t.scalar_type() == ScalarType::Long) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "%s must be Long, got %s", what,
                scalar_type_name(t.scalar_type()));
}

template <bool kMax>
void extremum_dim_kernel(KernelContext& ctx, Span<EValue*> args) {
  const char* name = kMax ? "aten::max.dim_max" : "aten::min.dim_min";
  const size_t count = args.size() == 6 ? 6 : 7;
  KernelArgs a(ctx, args, name, count);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const bool keepdim = a.bool_value(2);
  const Tensor outs[2] = {a.tensor(3), a.tensor(4)};
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, outs[0]))) {
    return;
  }
  DimSplit split;
  if ((!a.prepared() && !require_long(a, outs[1], "indices")) ||
      !dim_prologue(a, self, Optional<int64_t>(dim), keepdim, outs, 2, true, &split) ||
      !checks_done(a)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    arg_reduce<T, kMax>(split, self.const_data_ptr<T>(), outs[0].mutable_data_ptr<T>(),
                        outs[1].mutable_data_ptr<int64_t>());
  });
}

// The shared part of extremum_all_kernel and extremum_dims_kernel.
template <bool kMax>
void extremum_reduce(KernelArgs& a, KernelContext& ctx, Tensor self,
                     Optional<Span<int64_t>> dims, bool keepdim, Tensor out) {
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out))) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, true, &plan) || !checks_done(a)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    (void)reduce_contiguous<T, C>(
        a, ctx, plan, self.const_data_ptr<T>(), out, extremum_identity<kMax, C>(),
        [](C x, C y) { return extremum_fold<kMax>(x, y); }, [](C v) { return v; });
  });
}

template <bool kMax>
void extremum_all_kernel(KernelContext& ctx, Span<EValue*> args) {
  const char* name = kMax ? "aten::max.unary_out" : "aten::min.unary_out";
  KernelArgs a(ctx, args, name, 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  extremum_reduce<kMax>(a, ctx, self, {}, false, out);
}

template <bool kMax>
void extremum_dims_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kMax ? "aten::amax.out" : "aten::amin.out", 5);
  const Tensor self = a.tensor(0), out = a.tensor(3);
  const Optional<Span<int64_t>> dims(a.int_list(1));
  extremum_reduce<kMax>(a, ctx, self, dims, a.bool_value(2), out);
}

template <bool kMax>
void arg_extremum_kernel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kMax ? "aten::argmax.out" : "aten::argmin.out", 5);
  const Tensor self = a.tensor(0), out = a.tensor(3);
  const Optional<int64_t> dim = a.optional_int(1);
  const bool keepdim = a.bool_value(2);
  DimSplit split;
  if (!a.ok() || (!a.prepared() && !require_long(a, out, "out")) ||
      !dim_prologue(a, self, dim, keepdim, &out, 1, true, &split) || !checks_done(a)) {
    return;
  }
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    arg_reduce<T, kMax>(split, self.const_data_ptr<T>(), nullptr,
                        out.mutable_data_ptr<int64_t>());
  });
}

}  // namespace ember
