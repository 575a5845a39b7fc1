// aten::logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *,
//                     Tensor(a!) out)
// log(sum(exp(x))) over `dim` ([] = all dims), computed stably in double
// as m + log(sum(exp(x - m))) with m the maximum (0 when m is infinite, so
// +inf stays +inf and all -inf gives -inf); NaN propagates. out floating;
// contiguous tensors.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks;
// dim and keepdim are values, checked at every call, and out's shape only
// compared (reduce_prologue).
#include <cmath>

#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

inline double shift_of(double m) { return std::isinf(m) ? 0.0 : m; }

template <typename T>
bool run_logsumexp(KernelArgs& a, KernelContext& ctx, const ReducePlan& p,
                   const T* in, double* result) {
  if (p.trailing) {
    for (int64_t o = 0; o < p.out_numel; ++o) {
      const T* row = in + o * p.reduce_count;
      double m = -INFINITY;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        m = max_propagate_nan(m, cast_value<double>(row[j]));
      }
      const double shift = shift_of(m);
      double sum = 0;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        sum += std::exp(cast_value<double>(row[j]) - shift);
      }
      result[o] = std::log(sum) + shift;
    }
    return true;
  }
  double* mx = static_cast<double*>(
      reduce_temp(a, ctx, p.out_numel, sizeof(double)));
  if (mx == nullptr) {
    return false;
  }
  for (int64_t o = 0; o < p.out_numel; ++o) {
    mx[o] = -INFINITY;
    result[o] = 0;
  }
  for_each_reduce_row(p, [&](int64_t io, int64_t oo, int64_t len, bool red) {
    const T* row = in + io;
    if (red) {
      double m = mx[oo];
      for (int64_t j = 0; j < len; ++j) {
        m = max_propagate_nan(m, cast_value<double>(row[j]));
      }
      mx[oo] = m;
    } else {
      for (int64_t j = 0; j < len; ++j) {
        mx[oo + j] = max_propagate_nan(mx[oo + j], cast_value<double>(row[j]));
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    mx[o] = shift_of(mx[o]);
  }
  for_each_reduce_row(p, [&](int64_t io, int64_t oo, int64_t len, bool red) {
    const T* row = in + io;
    if (red) {
      double s = 0;
      for (int64_t j = 0; j < len; ++j) {
        s += std::exp(cast_value<double>(row[j]) - mx[oo]);
      }
      result[oo] += s;
    } else {
      for (int64_t j = 0; j < len; ++j) {
        result[oo + j] += std::exp(cast_value<double>(row[j]) - mx[oo + j]);
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    result[o] = std::log(result[o]) + mx[o];
  }
  return true;
}

void logsumexp_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::logsumexp.out", 5);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const bool keepdim = a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || (!a.prepared() && !require_floating(a, out, "out"))) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, Optional<Span<int64_t>>(dims), keepdim, out,
                       false, &plan) ||
      !checks_done(a)) {
    return;
  }
  double* result = static_cast<double*>(
      reduce_temp(a, ctx, plan.out_numel, sizeof(double)));
  if (result == nullptr) {
    return;
  }
  bool ok = false;
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ok = run_logsumexp<T>(a, ctx, plan, self.const_data_ptr<T>(), result);
  });
  if (ok) {
    (void)convert_elements(result, ScalarType::Double, 1, out.mutable_data_ptr(),
                           out.scalar_type(), 1, plan.out_numel);
  }
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::logsumexp.out", logsumexp_out_boxed);

}  // namespace ember
