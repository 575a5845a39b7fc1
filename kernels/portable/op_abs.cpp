// aten::abs.out(Tensor self, *, Tensor(a!) out)
// out = |self|; abs(-0.0) is +0.0, the most negative integer wraps to
// itself, Bool refused (as in PyTorch).
// A complex self (ComplexFloat, ComplexDouble) gives its magnitude
// hypot(re, im), computed in the matching real type (no overflow for
// large parts; inf when either part is infinite, even beside a NaN) and
// stored into a real floating out (Float, Double, Half, BFloat16), as
// PyTorch's abs of a complex tensor is real. A complex out is refused.
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// out[i] = hypot(re, im) of self[i], with R the real type of self.
template <typename R>
void complex_magnitude(const ElementwisePlan& plan, Tensor self, Tensor out) {
  const R* in = static_cast<const R*>(self.const_data_ptr());
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    for (int64_t done = 0; done < n; done += kChunk) {
      const int64_t count = n - done < kChunk ? n - done : kChunk;
      const int64_t out_at = off[0] + done * stride[0], in_at = off[1] + done * stride[1];
      R buf[kChunk];
      R* target = detail::store_target<R>(out, out_at, stride[0], buf);
      for (int64_t i = 0; i < count; ++i) {
        const int64_t at = 2 * (in_at + i * stride[1]);
        target[i] = std::hypot(in[at], in[at + 1]);
      }
      detail::store_finish<R>(out, out_at, stride[0], target, buf, count);
    }
  });
}

void complex_abs(KernelArgs& a, Tensor self, Tensor out) {
  const ScalarType type = self.scalar_type();
  if (type != ScalarType::ComplexFloat && type != ScalarType::ComplexDouble) {
    a.fail(Error::InvalidArgument, "complex self must be ComplexFloat or ComplexDouble, got %s",
           scalar_type_name(type));
    return;
  }
  if (!is_floating_type(out.scalar_type())) {
    a.fail(Error::InvalidArgument,
           "out dtype %s must be a real floating type (the magnitude of %s is real)",
           scalar_type_name(out.scalar_type()), scalar_type_name(type));
    return;
  }
  ElementwisePlan plan;
  if (!resize_out(a, out, self.sizes()) || !make_elementwise_plan(a, out, &self, 1, &plan)) {
    return;
  }
  if (a.preparing()) {
    a.prepared_stop();
    return;
  }
  if (type == ScalarType::ComplexFloat) {
    complex_magnitude<float>(plan, self, out);
  } else {
    complex_magnitude<double>(plan, self, out);
  }
}

void abs_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::abs.out", 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok()) {
    return;
  }
  if (is_complex_type(self.scalar_type())) {
    complex_abs(a, self, out);
    return;
  }
  same_type_unary_kernel<false>(ctx, args, "aten::abs.out", [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point<C>::value) {
      return std::fabs(x);
    } else if constexpr (std::is_unsigned<C>::value) {
      return x;
    } else {
      return x < C(0) ? neg_value(x) : x;  // INT_MIN wraps to itself
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::abs.out", abs_out_boxed);

}  // namespace ember
