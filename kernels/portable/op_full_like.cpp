// aten::full_like.out(Tensor self, Scalar fill_value, *,
//                     MemoryFormat? memory_format=None, Tensor(a!) out)
// Resizes out to self's shape and fills it with fill_value.
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/memory_format.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void full_like_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::full_like.out", 5);
  const Tensor self = a.tensor(0);
  const Scalar value = a.scalar(1);
  const Optional<int64_t> format = a.optional_enum(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_memory_format(a, format) ||
      !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)fill_with_scalar(a, out, value);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::full_like.out", full_like_out_boxed);

}  // namespace ember
