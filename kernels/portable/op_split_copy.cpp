// aten::split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *,
//                             Tensor(a!)[] out) -> ()
// Splits self along `dim` into chunks of split_size (the last may be
// smaller). Boxed: [self, split_size, dim, out list, returned list].
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/split_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void split_copy_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 4 ? 4 : 5;
  KernelArgs a(ctx, args, "aten::split_copy.Tensor_out", count);
  const Tensor self = a.tensor(0);
  const int64_t split_size = a.int_value(1);
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
  const int64_t size = self.sizes()[d];
  if (split_size < 0 || (split_size == 0 && size != 0)) {
    a.fail(Error::InvalidArgument, "split_size %lld is invalid for dim size %lld",
           static_cast<long long>(split_size), static_cast<long long>(size));
    return;
  }
  // ceil(size / split_size), one chunk for an empty dim; written without
  // size + split_size - 1, which overflows for a split_size near INT64_MAX.
  const int64_t chunks = size == 0 ? 1 : (size - 1) / split_size + 1;
  if (chunks != int64_t(outs.size()) || outs.size() > kMaxTensorDim * 64) {
    a.fail(Error::InvalidArgument, "out has %zu tensors; splitting %lld by %lld makes %lld",
           outs.size(), static_cast<long long>(size),
           static_cast<long long>(split_size), static_cast<long long>(chunks));
    return;
  }
  int64_t sizes[kMaxTensorDim * 64];
  for (int64_t i = 0; i < chunks; ++i) {
    const int64_t left = size - i * split_size;
    sizes[i] = left < split_size ? left : split_size;
  }
  (void)split_into(a, self, d, sizes, size_t(chunks), outs, false);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::split_copy.Tensor_out", split_copy_tensor_out_boxed);

}  // namespace ember
