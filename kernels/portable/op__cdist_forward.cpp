// aten::_cdist_forward.out(Tensor x1, Tensor x2, float p, int? compute_mode,
//     *, Tensor(a!) out) -> Tensor(a!)
//
// out[..., i, j] = || x1[..., i, :] - x2[..., j, :] ||_p for x1 [B..., P, M]
// and x2 [B..., R, M]: out is [B..., P, R], the batch dims broadcast as in
// PyTorch. p >= 0; 0, 1, 2 and inf have their own rules
// (util/distance_util.h; a NaN difference is skipped by the inf-norm, as in
// PyTorch's cdist). Float or Double, contiguous.
//
// compute_mode (None, 0, 1 or 2) is checked but does not change the
// arithmetic: PyTorch may compute p = 2 distances as sqrt(|x|^2 + |y|^2 -
// 2 x.y) through a matrix product; Ember always sums the squared
// differences, which is as accurate or better, and agrees with PyTorch's
// direct form exactly and with its product form within rounding for finite
// inputs. Parallel over output rows; no temp memory.
#include "kernels/portable/util/distance_util.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// Element offsets of each operand's [rows, M] matrix for output batch `b`.
struct BatchMap {
  size_t dims = 0;
  int64_t out_sizes[kMaxTensorDim];
  int64_t stride1[kMaxTensorDim], stride2[kMaxTensorDim];  // 0 where broadcast

  void offsets(int64_t b, int64_t* o1, int64_t* o2) const {
    *o1 = 0;
    *o2 = 0;
    for (size_t d = dims; d-- > 0;) {
      const int64_t c = b % out_sizes[d];
      b /= out_sizes[d];
      *o1 += c * stride1[d];
      *o2 += c * stride2[d];
    }
  }
};

template <typename T>
void cdist(const BatchMap& map, int64_t batches, int64_t p_rows, int64_t r_rows, int64_t m,
           double p, const T* x1, const T* x2, T* out) {
  const NormKind kind = norm_kind(p);
  parallel_for(size_t(batches * p_rows), [&](size_t task) {
    const int64_t b = int64_t(task) / p_rows, i = int64_t(task) % p_rows;
    int64_t o1, o2;
    map.offsets(b, &o1, &o2);
    const T* row = x1 + o1 + i * m;
    T* dst = out + int64_t(task) * r_rows;
    for (int64_t j = 0; j < r_rows; ++j) {
      dst[j] = pnorm_distance<T>(kind, T(p), row, x2 + o2 + j * m, m, false);
    }
  });
}

void cdist_forward_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_cdist_forward.out", 6);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double p = a.double_value(2);
  const Optional<int64_t> mode = a.optional_int(3);
  const Tensor out = a.tensor(4);
  if (!a.ok()) {
    return;
  }
  const ScalarType type = x1.scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    a.fail(Error::NotSupported, "dtype %s is not supported (Float or Double)",
           scalar_type_name(type));
    return;
  }
  if (x2.scalar_type() != type || out.scalar_type() != type) {
    a.fail(Error::InvalidArgument, "x1, x2 and out must share dtype %s (got %s and %s)",
           scalar_type_name(type), scalar_type_name(x2.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  if (!check_contiguous(a, x1, "x1") || !check_contiguous(a, x2, "x2") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (!(p >= 0.0)) {
    a.fail(Error::InvalidArgument, "p = %g must be a non-negative number", p);
    return;
  }
  if (mode.has_value() && (mode.value() < 0 || mode.value() > 2)) {
    a.fail(Error::InvalidArgument, "compute_mode %lld is not 0, 1 or 2",
           static_cast<long long>(mode.value()));
    return;
  }
  const size_t d1 = x1.dim(), d2 = x2.dim();
  if (d1 < 2 || d2 < 2) {
    a.fail(Error::InvalidArgument, "x1 and x2 need at least 2 dims; got %zu and %zu", d1, d2);
    return;
  }
  const int64_t m = x1.sizes()[d1 - 1];
  if (x2.sizes()[d2 - 1] != m) {
    a.fail(Error::InvalidArgument, "x1 has %lld columns, x2 %lld",
           static_cast<long long>(m), static_cast<long long>(x2.sizes()[d2 - 1]));
    return;
  }
  const int64_t p_rows = x1.sizes()[d1 - 2], r_rows = x2.sizes()[d2 - 2];
  BatchMap map;
  map.dims = (d1 > d2 ? d1 : d2) - 2;
  Shape shape;
  shape.dim = map.dims + 2;
  int64_t batches = 1;
  int64_t s1 = p_rows * m, s2 = r_rows * m;
  for (size_t k = map.dims; k-- > 0;) {
    const size_t back = map.dims - k;  // 1 for the batch dim next to the rows
    const int64_t n1 = back <= d1 - 2 ? x1.sizes()[d1 - 2 - back] : 1;
    const int64_t n2 = back <= d2 - 2 ? x2.sizes()[d2 - 2 - back] : 1;
    if (n1 != n2 && n1 != 1 && n2 != 1) {
      a.fail(Error::InvalidArgument,
             "batch dims do not broadcast: %lld against %lld (batch dim %zu from the end)",
             static_cast<long long>(n1), static_cast<long long>(n2), back);
      return;
    }
    const int64_t n = n1 == 1 ? n2 : n1;
    map.out_sizes[k] = n;
    map.stride1[k] = n1 == 1 ? 0 : s1;
    map.stride2[k] = n2 == 1 ? 0 : s2;
    s1 *= n1;
    s2 *= n2;
    shape.sizes[k] = SizesType(n);
    batches *= n;
  }
  shape.sizes[map.dims] = SizesType(p_rows);
  shape.sizes[map.dims + 1] = SizesType(r_rows);
  if (!resize_out(a, out, shape.span()) || out.numel() == 0) {
    return;
  }
  visit_float_or_double_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cdist<T>(map, batches, p_rows, r_rows, m, p, x1.const_data_ptr<T>(),
             x2.const_data_ptr<T>(), out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_cdist_forward.out", cdist_forward_out_boxed);

}  // namespace ember
