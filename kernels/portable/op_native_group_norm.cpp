// aten::native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias,
//     SymInt N, SymInt C, SymInt HxW, int group, float eps, *,
//     Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
//     -> (Tensor(a!), Tensor(b!), Tensor(c!))
// input [N, C, *] with HxW elements per channel; each group of C / group
// channels is normalized with its own mean and rstd (out1, out2: [N,
// group]), then scaled by weight[c] and shifted by bias[c]. Statistics in
// double. Boxed: 11 schema args, then one tuple value (12) or the outs (14).
// Floating dtypes; contiguous.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks,
// the checks of weight and bias (C must equal input's dim 1, so their
// element count follows from input's shape) and out0's resize. N, C, HxW
// and group are values, read and checked at every call; out1 and out2 are
// [N, group], so only compared (match_out_shape).
#include "kernels/portable/util/norm_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct GroupGeometry {
  int64_t n, c, hw, groups;
};

template <typename T>
void group_norm(const GroupGeometry& g, const T* in, const T* w, const T* b,
                double eps, T* out, T* mean_out, T* rstd_out) {
  using C = OpMath<T>;
  const int64_t cpg = g.c / g.groups;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const int64_t off = (n * g.c + grp * cpg) * g.hw;
      double mean, rstd;
      mean_rstd(in + off, cpg * g.hw, eps, &mean, &rstd);
      mean_out[n * g.groups + grp] = T(mean);
      rstd_out[n * g.groups + grp] = T(rstd);
      for (int64_t k = 0; k < cpg; ++k) {
        const int64_t ch = grp * cpg + k;
        const C scale = C(rstd) * (w != nullptr ? C(w[ch]) : C(1));
        const C shift = (b != nullptr ? C(b[ch]) : C(0)) - C(mean) * scale;
        const T* x = in + off + k * g.hw;
        T* y = out + off + k * g.hw;
        for (int64_t i = 0; i < g.hw; ++i) {
          y[i] = T(C(x[i]) * scale + shift);
        }
      }
    }
  }
}

void native_group_norm_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::native_group_norm.out",
               tuple_op_arg_count(args.size(), 11, 3));
  const Tensor input = a.tensor(0);
  const Optional<Tensor> weight = a.optional_tensor(1), bias = a.optional_tensor(2);
  GroupGeometry g{a.int_value(3), a.int_value(4), a.int_value(5), a.int_value(6)};
  const double eps = a.double_value(7);
  const Tensor out = a.tensor(8), mean = a.tensor(9), rstd = a.tensor(10);
  if (!a.ok() ||
      (!a.prepared() && !check_norm_outputs(a, input, out, mean, rstd))) {
    return;
  }
  // N and C must equal input dims (so they fit int32); HxW is checked by
  // division, never by a product that could overflow.
  const bool dims_match = input.dim() >= 2 && g.n == input.sizes()[0] &&
                          g.c == input.sizes()[1];
  const int64_t nc = dims_match ? g.n * g.c : 0;
  if (!dims_match || g.hw < 0 || g.hw > INT32_MAX ||
      (nc != 0 && g.hw != input.numel() / nc)) {
    a.fail(Error::InvalidArgument,
           "N = %lld, C = %lld, HxW = %lld do not describe the input",
           static_cast<long long>(g.n), static_cast<long long>(g.c),
           static_cast<long long>(g.hw));
    return;
  }
  // groups is bounded as well: with C = 0 every group count divides C,
  // and out1/out2 are [N, group].
  if (g.groups < 1 || g.groups > INT32_MAX || g.c % g.groups != 0) {
    a.fail(Error::InvalidArgument, "group = %lld does not divide C = %lld",
           static_cast<long long>(g.groups), static_cast<long long>(g.c));
    return;
  }
  if (!a.prepared() &&
      (!check_norm_param(a, weight, input.scalar_type(), g.c, "weight") ||
       !check_norm_param(a, bias, input.scalar_type(), g.c, "bias"))) {
    return;
  }
  const SizesType stat[2] = {SizesType(g.n), SizesType(g.groups)};
  if ((!a.prepared() && !resize_out(a, out, shape_of(input).span())) ||
      !match_out_shape(a, mean, {stat, 2}) || !match_out_shape(a, rstd, {stat, 2}) ||
      !checks_done(a)) {
    return;
  }
  visit_float_double_half_bfloat16_dtype(input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    group_norm<T>(g, input.const_data_ptr<T>(),
                  weight.has_value() ? weight.value().const_data_ptr<T>() : nullptr,
                  bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
                  eps, out.mutable_data_ptr<T>(), mean.mutable_data_ptr<T>(),
                  rstd.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::native_group_norm.out", native_group_norm_out_boxed);

}  // namespace ember
