// aten::pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out)
// [*, C * r * r, H, W] -> [*, C, H * r, W * r]: out[c, h * r + i, w * r + j] = in[c * r * r + i * r + j, h, w].
// Any storage dtype (moved by element size); at least 3 dims; contiguous.
#include <cstring>

#include "kernels/portable/util/pixel_shuffle_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void pixel_shuffle_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::pixel_shuffle.out", 4);
  const Tensor self = a.tensor(0);
  const int64_t r = a.int_value(1);
  const Tensor out = a.tensor(2);
  pixel_shuffle(a, self, r, out, true);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::pixel_shuffle.out", pixel_shuffle_out_boxed);

}  // namespace ember
