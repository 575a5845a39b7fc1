// aten::var.out(Tensor self, int[1]? dim, bool unbiased=True,
//               bool keepdim=False, *, Tensor(a!) out)
// aten::var.correction_out(Tensor self, int[1]? dim=None, *,
//     Scalar? correction=None, bool keepdim=False, Tensor(a!) out)
// Variance over `dim` (None or [] = all dims): sum((x - mean)^2) /
// max(0, N - correction), two passes in double. correction defaults to 1
// (unbiased); N - correction <= 0 gives inf or NaN as in PyTorch. self and
// out floating and contiguous.
#include "kernels/portable/util/reduce_ops.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
bool run_var(KernelArgs& a, KernelContext& ctx, const ReducePlan& p,
             const T* in, double correction, double* result) {
  const double n = double(p.reduce_count);
  const double divisor = n - correction > 0 ? n - correction : 0.0;
  if (p.trailing) {
    for (int64_t o = 0; o < p.out_numel; ++o) {
      const T* row = in + o * p.reduce_count;
      double sum = 0;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        sum += double(row[j]);
      }
      const double mean = sum / n;
      double m2 = 0;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        const double d = double(row[j]) - mean;
        m2 += d * d;
      }
      result[o] = m2 / divisor;
    }
    return true;
  }
  double* mean = static_cast<double*>(
      reduce_temp(a, ctx, p.out_numel, sizeof(double)));
  if (mean == nullptr) {
    return false;
  }
  for (int64_t o = 0; o < p.out_numel; ++o) {
    mean[o] = 0;
    result[o] = 0;
  }
  for_each_reduce_row(p, [&](int64_t io, int64_t oo, int64_t len, bool red) {
    const T* row = in + io;
    if (red) {
      double s = 0;
      for (int64_t j = 0; j < len; ++j) {
        s += double(row[j]);
      }
      mean[oo] += s;
    } else {
      for (int64_t j = 0; j < len; ++j) {
        mean[oo + j] += double(row[j]);
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    mean[o] /= n;
  }
  for_each_reduce_row(p, [&](int64_t io, int64_t oo, int64_t len, bool red) {
    const T* row = in + io;
    if (red) {
      double s = 0;
      const double m = mean[oo];
      for (int64_t j = 0; j < len; ++j) {
        const double d = double(row[j]) - m;
        s += d * d;
      }
      result[oo] += s;
    } else {
      for (int64_t j = 0; j < len; ++j) {
        const double d = double(row[j]) - mean[oo + j];
        result[oo + j] += d * d;
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    result[o] /= divisor;
  }
  return true;
}

void var(KernelArgs& a, KernelContext& ctx, Tensor self,
         Optional<Span<int64_t>> dims, double correction, bool keepdim,
         Tensor out) {
  if (!a.ok() || !require_floating(a, self, "self") ||
      !require_floating(a, out, "out")) {
    return;
  }
  ReducePlan plan;
  if (!reduce_prologue(a, self, dims, keepdim, out, false, &plan)) {
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
    if constexpr (!std::is_integral<T>::value) {
      ok = run_var<T>(a, ctx, plan, self.const_data_ptr<T>(), correction,
                      result);
    }
  });
  if (ok) {
    (void)convert_elements(result, ScalarType::Double, 1, out.mutable_data_ptr(),
                           out.scalar_type(), 1, plan.out_numel);
  }
}

void var_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::var.out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool unbiased = a.bool_value(2);
  const bool keepdim = a.bool_value(3);
  const Tensor out = a.tensor(4);
  var(a, ctx, self, dims, unbiased ? 1.0 : 0.0, keepdim, out);
}

void var_correction_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::var.correction_out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const Optional<Scalar> correction = a.optional_scalar(2);
  const bool keepdim = a.bool_value(3);
  const Tensor out = a.tensor(4);
  var(a, ctx, self, dims,
      correction.has_value() ? correction.value().to_double() : 1.0, keepdim,
      out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::var.out", var_out_boxed);
EMBER_REGISTER_KERNEL("aten::var.correction_out", var_correction_out_boxed);

}  // namespace ember
