// aten::reflection_pad1d.out(Tensor self, SymInt[2] padding, *,
//     Tensor(a!) out) -> Tensor(a!)
// Pads the last 1 dim of self, [C, W] or [N, C, W], by (before, after) pairs
// starting from the last dim, mirrored about the edge element (which is not
// repeated); each pad must be smaller than the dim it pads. Negative pads
// crop; every padded size must be at least 1. Any dtype; contiguous. The
// index maths and the checks live in util/pad_util.
#include "kernels/portable/util/pad_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void reflection_pad1d_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::reflection_pad1d.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> padding = a.int_list(1);
  const Tensor out = a.tensor(2);
  pad_out(a, self, padding, 1, PadMode::Reflect, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::reflection_pad1d.out", reflection_pad1d_out_boxed);

}  // namespace ember
