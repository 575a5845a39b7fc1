// aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None,
//                 Tensor(a!) out)
// Copies self into out (same dtype). out keeps its own dim order, so a
// clone between dim orders is a layout conversion. Only the preserve and
// contiguous memory formats are accepted.
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

void clone_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::clone.out", 4);
  const Tensor self = a.tensor(0);
  const Optional<int64_t> format = a.optional_enum(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_memory_format(a, format)) {
    return;
  }
  if (!a.prepared()) {
    if (!check_supported_dtype(a, self, "self")) {
      return;
    }
    if (out.scalar_type() != self.scalar_type()) {
      a.fail(Error::InvalidArgument, "out dtype %s differs from self dtype %s",
             scalar_type_name(out.scalar_type()),
             scalar_type_name(self.scalar_type()));
      return;
    }
    if (!resize_out(a, out, self.sizes())) {
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

EMBER_REGISTER_PREPARED_KERNEL("aten::clone.out", clone_out_boxed);

}  // namespace ember
