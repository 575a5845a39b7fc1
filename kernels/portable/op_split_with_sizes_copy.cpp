// aten::split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes,
//                                 int dim=0, *, Tensor(a!)[] out) -> ()
// Splits self along `dim` into pieces of the given sizes (they must sum to
// the dim's size). Boxed: [self, split_sizes, dim, out list, returned list];
// the exporter emits this for torch.split.
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/split_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void split_with_sizes_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 4 ? 4 : 5;
  KernelArgs a(ctx, args, "aten::split_with_sizes_copy.out", count);
  const Tensor self = a.tensor(0);
  const Span<int64_t> sizes = a.int_list(1);
  const int64_t dim = a.int_value(2);
  const Span<Tensor> outs = a.tensor_list(3);
  size_t d;
  if (!a.ok() || !check_supported_dtype(a, self, "self")) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "cannot split a zero-dim tensor");
    return;
  }
  if (!normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  (void)split_into(a, self, d, sizes.data(), sizes.size(), outs, false);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::split_with_sizes_copy.out",
                      split_with_sizes_copy_out_boxed);

}  // namespace ember
