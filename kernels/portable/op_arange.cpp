// aten::arange.out(Scalar end, *, Tensor(a!) out)
// aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *,
//                        Tensor(a!) out)
// out = [start, start + step, ...) up to end (exclusive), resized to
// ceil((end - start) / step) elements; values start + i * step computed in
// double (int64 for integral outs) and cast to out's dtype.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void arange_fill(KernelArgs& a, const Scalar& start, const Scalar& end,
                 const Scalar& step, Tensor out) {
  if (!check_supported_dtype(a, out, "out")) {
    return;
  }
  if (out.dim() != 1) {
    a.fail(Error::InvalidArgument, "out must be 1-D, got %zu dims", out.dim());
    return;
  }
  const bool integral = !start.is_floating() && !end.is_floating() &&
                        !step.is_floating();
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  if (!std::isfinite(s) || !std::isfinite(e)) {
    a.fail(Error::InvalidArgument, "unsupported range: %g -> %g", s, e);
    return;
  }
  if (st == 0.0 || !std::isfinite(st)) {
    a.fail(Error::InvalidArgument, "step must be nonzero and finite");
    return;
  }
  if ((st > 0 && e < s) || (st < 0 && e > s)) {
    a.fail(Error::InvalidArgument,
           "upper bound and lower bound inconsistent with step sign");
    return;
  }
  double size_d;
  if (integral) {
    // Exact, in uint64: end - start can overflow int64 (INT64_MIN to
    // INT64_MAX), and so can -step.
    const int64_t i0 = start.to_int(), i1 = end.to_int(), di = step.to_int();
    if ((di > 0 && i1 < i0) || (di < 0 && i1 > i0)) {
      a.fail(Error::InvalidArgument,
             "upper bound and lower bound inconsistent with step sign");
      return;
    }
    const uint64_t span =
        di > 0 ? uint64_t(i1) - uint64_t(i0) : uint64_t(i0) - uint64_t(i1);
    const uint64_t stride = di > 0 ? uint64_t(di) : uint64_t(0) - uint64_t(di);
    size_d = span == 0 ? 0.0 : double((span - 1) / stride + 1);
  } else {
    size_d = std::ceil((e - s) / st);
  }
  if (!(size_d >= 0) || size_d > double(INT32_MAX)) {
    a.fail(Error::InvalidArgument, "arange size %g is invalid", size_d);
    return;
  }
  const SizesType n = SizesType(size_d);
  if (!resize_out(a, out, {&n, 1})) {
    return;
  }
  (void)visit_storage_dtype(out.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.mutable_data_ptr<T>();
    if (integral) {
      // start + i * step lies between start and end, but i * step alone
      // may not fit int64: compute modulo 2^64, which gives the exact value.
      const uint64_t i0 = uint64_t(start.to_int()), di = uint64_t(step.to_int());
      for (int64_t i = 0; i < n; ++i) {
        data[i] = cast_value<T>(int64_t(i0 + uint64_t(i) * di));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        data[i] = cast_value<T>(s + double(i) * st);
      }
    }
  });
}

void arange_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::arange.out", 3);
  const Scalar end = a.scalar(0);
  const Tensor out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  Scalar zero, one;
  one.i = 1;
  arange_fill(a, zero, end, one, out);
}

void arange_start_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::arange.start_out", 5);
  const Scalar start = a.scalar(0), end = a.scalar(1), step = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  arange_fill(a, start, end, step, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::arange.out", arange_out_boxed);
EMBER_REGISTER_KERNEL("aten::arange.start_out", arange_start_out_boxed);

}  // namespace ember
