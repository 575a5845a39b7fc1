// aten::select_copy.int_out(Tensor self, int dim, SymInt index, *,
//                           Tensor(a!) out)
// out = self[..., index, ...] along `dim` (that dim removed). A negative
// index counts from the end; out of range is an error. Any dim order.
//
// A prepared kernel: Prepared calls skip the dtype check; dim and index are read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
// The source offset comes from the current data pointer at every call.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/select_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void select_copy_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::select_copy.int_out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const int64_t index = a.int_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out))) {
    return;
  }
  SelectView v;
  if (!select_view(a, self, dim, index, &v) || !out_shape_prologue(a, out, v.shape.span())) {
    return;
  }
  if (out.numel() == 0) {
    return;  // nothing to read (and no data pointer to offset)
  }
  const char* base = static_cast<const char*>(self.const_data_ptr()) + v.byte_offset;
  copy_strided_view(base, self.scalar_type(), v.strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::select_copy.int_out", select_copy_int_out_boxed);

}  // namespace ember
