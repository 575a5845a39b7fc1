// aten::expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False,
//                       Tensor(a!) out)
// Broadcasts self to `size`: -1 keeps a dim, new dims go in front, only
// size-1 dims may grow.
//
// A prepared kernel: Prepared calls skip the dtype check; the size list is read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void expand_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::expand_copy.out", 5);
  const Tensor self = a.tensor(0);
  const Span<int64_t> size = a.int_list(1);
  (void)a.bool_value(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || (!a.prepared() && !check_same_dtype(a, self, out))) {
    return;
  }
  if (size.size() < self.dim() || size.size() > kMaxTensorDim) {
    a.fail(Error::InvalidArgument,
           "size has %zu entries; need between %zu (self's dims) and %zu",
           size.size(), self.dim(), kMaxTensorDim);
    return;
  }
  Shape shape;
  shape.dim = size.size();
  int64_t strides[kMaxTensorDim];
  const size_t lead = size.size() - self.dim();
  for (size_t i = 0; i < size.size(); ++i) {
    const int64_t want = size[i];
    if (i < lead) {
      if (want < 0 || want > INT32_MAX) {
        a.fail(Error::InvalidArgument,
               "size[%zu] = %lld is invalid for a new leading dim", i,
               static_cast<long long>(want));
        return;
      }
      shape.sizes[i] = SizesType(want);
      strides[i] = 0;
      continue;
    }
    const SizesType have = self.sizes()[i - lead];
    if (want == -1 || want == have) {
      shape.sizes[i] = have;
      strides[i] = self.strides()[i - lead];
    } else if (have == 1 && want >= 0 && want <= INT32_MAX) {
      shape.sizes[i] = SizesType(want);
      strides[i] = 0;
    } else {
      a.fail(Error::InvalidArgument,
             "cannot expand dim %zu of size %d to %lld", i - lead, int(have),
             static_cast<long long>(want));
      return;
    }
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::expand_copy.out", expand_copy_out_boxed);

}  // namespace ember
