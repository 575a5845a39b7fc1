#include "kernels/portable/util/variance.h"

#include <limits>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"

namespace ember {
namespace {

// The running mean m += (x - m) / k over x_1..x_N, PyTorch's Welford
// update: the same value as sum / N up to rounding, and the same
// non-finite results as PyTorch (an infinity followed by any other element
// gives NaN).
inline void running_mean_step(double x, double* mean, double* count) {
  *count += 1.0;
  *mean += (x - *mean) / *count;
}

template <typename T>
bool run_variance(KernelArgs& a, KernelContext& ctx, const ReducePlan& p, const T* in,
                  double correction, double* var, double* mean) {
  const double n = double(p.reduce_count);
  const double divisor = n - correction > 0 ? n - correction : 0.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (p.trailing) {
    for (int64_t o = 0; o < p.out_numel; ++o) {
      const T* row = in + o * p.reduce_count;
      double m = 0, count = 0;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        running_mean_step(double(row[j]), &m, &count);
      }
      if (p.reduce_count == 0) {
        m = nan;
      }
      double m2 = 0;
      for (int64_t j = 0; j < p.reduce_count; ++j) {
        const double d = double(row[j]) - m;
        m2 += d * d;
      }
      var[o] = m2 / divisor;
      if (mean != nullptr) {
        mean[o] = m;
      }
    }
    return true;
  }
  if (mean == nullptr) {
    mean = static_cast<double*>(reduce_temp(a, ctx, p.out_numel, sizeof(double)));
    if (mean == nullptr) {
      return false;
    }
  }
  // The counts go in var until the second pass.
  double* count = var;
  for (int64_t o = 0; o < p.out_numel; ++o) {
    mean[o] = p.reduce_count == 0 ? nan : 0.0;
    count[o] = 0;
  }
  for_each_reduce_row(p, [&](int64_t io, int64_t oo, int64_t len, bool red) {
    const T* row = in + io;
    if (red) {
      for (int64_t j = 0; j < len; ++j) {
        running_mean_step(double(row[j]), &mean[oo], &count[oo]);
      }
    } else {
      for (int64_t j = 0; j < len; ++j) {
        running_mean_step(double(row[j]), &mean[oo + j], &count[oo + j]);
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    var[o] = 0;
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
      var[oo] += s;
    } else {
      for (int64_t j = 0; j < len; ++j) {
        const double d = double(row[j]) - mean[oo + j];
        var[oo + j] += d * d;
      }
    }
  });
  for (int64_t o = 0; o < p.out_numel; ++o) {
    var[o] /= divisor;
  }
  return true;
}

}  // namespace

bool variance_and_mean(KernelArgs& a, KernelContext& ctx, const ReducePlan& plan,
                       Tensor self, double correction, double* var, double* mean) {
  bool ok = false;
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_integral<T>::value) {
      ok = run_variance<T>(a, ctx, plan, self.const_data_ptr<T>(), correction, var, mean);
    }
  });
  return ok;
}

}  // namespace ember
