// aten::_pdist_forward.out(Tensor self, float p=2., *, Tensor(a!) out)
//     -> Tensor(a!)
//
// The condensed distance matrix of self's rows: for self [N, M], out has
// N * (N - 1) / 2 entries, the p-norm distances of rows (i, j), i < j, in
// row-major order of the upper triangle ((0, 1), (0, 2), ..., (1, 2), ...).
// p >= 0, with util/distance_util.h's rules (a NaN difference propagates
// through the inf-norm here, as in PyTorch's pdist). Float or Double,
// contiguous. Parallel over the first row of each pair; no temp memory.
#include "kernels/portable/util/distance_util.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

template <typename T>
void pdist(int64_t n, int64_t m, double p, const T* self, T* out) {
  const NormKind kind = norm_kind(p);
  parallel_for(size_t(n), [&](size_t task) {
    const int64_t i = int64_t(task);
    // Pairs (i', j) with i' < i come first: i * n - i * (i + 1) / 2 of them.
    T* dst = out + i * n - i * (i + 1) / 2;
    for (int64_t j = i + 1; j < n; ++j) {
      dst[j - i - 1] = pnorm_distance<T>(kind, T(p), self + i * m, self + j * m, m, true);
    }
  });
}

void pdist_forward_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_pdist_forward.out", 4);
  const Tensor self = a.tensor(0);
  const double p = a.double_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    a.fail(Error::NotSupported, "dtype %s is not supported (Float or Double)",
           scalar_type_name(type));
    return;
  }
  if (!check_same_dtype(a, self, out) || !check_contiguous(a, self, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (self.dim() != 2) {
    a.fail(Error::InvalidArgument, "self must have 2 dims, has %zu", self.dim());
    return;
  }
  if (!(p >= 0.0)) {
    a.fail(Error::InvalidArgument, "p = %g must be a non-negative number", p);
    return;
  }
  const int64_t n = self.sizes()[0], m = self.sizes()[1];
  const int64_t pairs = n * (n - 1) / 2;  // n < 2^31: exact
  if (pairs > INT32_MAX) {
    a.fail(Error::InvalidArgument, "%lld rows give too many pairs", static_cast<long long>(n));
    return;
  }
  const SizesType size = SizesType(n > 1 ? pairs : 0);
  if (!resize_out(a, out, {&size, 1}) || size == 0) {
    return;
  }
  visit_float_or_double_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    pdist<T>(n, m, p, self.const_data_ptr<T>(), out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_pdist_forward.out", pdist_forward_out_boxed);

}  // namespace ember
