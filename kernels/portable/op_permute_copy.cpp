// aten::permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out)
// out dim i = self dim dims[i]. Any dim order on either side. Any storage
// dtype, complex ones included (moved as bytes: Whisper's preprocessor
// permutes the spectrum _fft_r2c returns).
//
// A prepared kernel: Prepared calls skip the dtype check; dims are read and
// checked in every mode (an Int may change between executions), and out's
// shape only compared (out_shape_prologue).
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void permute_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::permute_copy.out", 4);
  const Tensor self = a.tensor(0);
  const Span<int64_t> dims = a.int_list(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_same_movable_dtype(a, self, out))) {
    return;
  }
  const size_t ndim = self.dim();
  if (dims.size() != ndim) {
    a.fail(Error::InvalidArgument, "dims has %zu entries for %zu dims",
           dims.size(), ndim);
    return;
  }
  Shape shape;
  shape.dim = ndim;
  int64_t strides[kMaxTensorDim];
  bool seen[kMaxTensorDim] = {};
  for (size_t i = 0; i < ndim; ++i) {
    size_t d;
    if (!normalize_dim(a, dims[i], ndim, "dims entry", &d)) {
      return;
    }
    if (seen[d]) {
      a.fail(Error::InvalidArgument, "dims repeats dim %zu", d);
      return;
    }
    seen[d] = true;
    shape.sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  if (!out_shape_prologue(a, out, shape.span())) {
    return;
  }
  copy_strided_view(self.const_data_ptr(), self.scalar_type(), strides, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::permute_copy.out", permute_copy_out_boxed);

}  // namespace ember
