// aten::_to_copy.out(Tensor self, *, bool non_blocking=False,
//                    MemoryFormat? memory_format=None, Tensor(a!) out)
// Copies self into out converting to out's dtype (any storage types).
//
// A prepared kernel: Prepared calls skip the dtype checks and the resize
// (out takes self's static shape); memory_format, an Int, is checked in
// every mode.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/memory_format.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void to_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::_to_copy.out", 5);
  const Tensor self = a.tensor(0);
  (void)a.bool_value(1);
  const Optional<int64_t> format = a.optional_enum(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_memory_format(a, format)) {
    return;
  }
  if (!a.prepared()) {
    if (!check_supported_dtype(a, self, "self") || !check_supported_dtype(a, out, "out") ||
        !resize_out(a, out, self.sizes())) {
      return;
    }
    if (a.preparing()) {
      a.prepared_stop();
      return;
    }
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::_to_copy.out", to_copy_out_boxed);

}  // namespace ember
