// aten::triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out)
// Keeps elements with j - i >= diagonal in the last two dims, zeroes the
// rest. The exporter decomposes torch.triu unless the op is preserved.
#include "kernels/portable/util/triangle_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void triu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::triu.out", 4);
  const Tensor self = a.tensor(0);
  const int64_t diagonal = a.int_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  triangle_copy(a, self, diagonal, out, /*upper=*/true);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::triu.out", triu_out_boxed);

}  // namespace ember
