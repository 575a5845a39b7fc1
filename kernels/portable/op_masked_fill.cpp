// aten::masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *,
//                              Tensor(a!) out)
// out = mask ? value : self, with self and mask broadcast together; out
// keeps self's dtype. The mask must be Bool. The value converts like
// Scalar::to<T>() (floats truncate into integer tensors; out of range is
// an error).
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void masked_fill_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::masked_fill.Scalar_out", 5);
  const Tensor self = a.tensor(0), mask = a.tensor(1);
  const Scalar value = a.scalar(2);
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  if (mask.scalar_type() != ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "mask must be Bool, got %s",
           scalar_type_name(mask.scalar_type()));
    return;
  }
  const ScalarType type = self.scalar_type();
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, mask, out, type, &plan)) {
    return;
  }
  visit_compute_dtype(compute_type_for(type), [&](auto tag) {
    using C = typename decltype(tag)::type;
    C v = C(0);
    if (!scalar_cast_to(a, value, "value", &v)) {
      return;
    }
    binary_elementwise<C, C>(plan, self, mask, out,
                             [v](C x, C m) { return m != C(0) ? v : x; });
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::masked_fill.Scalar_out", masked_fill_scalar_out_boxed);

}  // namespace ember
