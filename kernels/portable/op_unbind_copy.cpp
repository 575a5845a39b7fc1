// aten::unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out)
//     -> ()
// out[i] = self.select(dim, i). Boxed: [self, dim, out list, returned list].
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/split_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr size_t kMaxUnbind = 1024;

void unbind_copy_int_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 3 ? 3 : 4;
  KernelArgs a(ctx, args, "aten::unbind_copy.int_out", count);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Span<Tensor> outs = a.tensor_list(2);
  size_t d;
  if (!a.ok() || !check_supported_dtype(a, self, "self")) {
    return;
  }
  if (self.dim() == 0) {
    a.fail(Error::InvalidArgument, "cannot unbind a zero-dim tensor");
    return;
  }
  if (!normalize_dim(a, dim, self.dim(), "dim", &d)) {
    return;
  }
  const size_t n = size_t(self.sizes()[d]);
  if (n != outs.size() || n > kMaxUnbind) {
    a.fail(Error::InvalidArgument, "out has %zu tensors for dim %zu of size %zu (at most %zu)",
           outs.size(), d, n, kMaxUnbind);
    return;
  }
  int64_t ones[kMaxUnbind];
  for (size_t i = 0; i < n; ++i) {
    ones[i] = 1;
  }
  (void)split_into(a, self, d, ones, n, outs, true);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::unbind_copy.int_out", unbind_copy_int_out_boxed);

}  // namespace ember
