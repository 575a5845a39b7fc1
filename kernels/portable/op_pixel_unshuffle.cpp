// aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out)
// [*, C, H * r, W * r] -> [*, C * r * r, H, W], the inverse of pixel_shuffle.
// Any storage dtype (moved by element size); at least 3 dims; contiguous.
#include <cstring>

#include "kernels/portable/util/pixel_shuffle_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void pixel_unshuffle_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::pixel_unshuffle.out", 4);
  const Tensor self = a.tensor(0);
  const int64_t r = a.int_value(1);
  const Tensor out = a.tensor(2);
  pixel_shuffle(a, self, r, out, false);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::pixel_unshuffle.out", pixel_unshuffle_out_boxed);

}  // namespace ember
