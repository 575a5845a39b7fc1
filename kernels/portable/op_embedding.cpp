// aten::embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1,
//     bool scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out)
// out[..., :] = weight[indices[...], :]; out is indices' shape plus
// weight's row size. padding_idx only matters for training. Contiguous
// tensors; an index outside [0, num_embeddings) is an error.
#include <cstring>

#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void embedding_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::embedding.out", 7);
  const Tensor weight = a.tensor(0);
  const Tensor indices = a.tensor(1);
  (void)a.int_value(2);
  (void)a.bool_value(3);
  (void)a.bool_value(4);
  const Tensor out = a.tensor(5);
  if (!a.ok() || !check_same_dtype(a, weight, out) ||
      !check_index_tensor(a, indices, "indices") ||
      !check_contiguous(a, weight, "weight") ||
      !check_contiguous(a, indices, "indices") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (weight.dim() != 2) {
    a.fail(Error::InvalidArgument, "weight must be 2-D, got %zu dims", weight.dim());
    return;
  }
  if (indices.dim() + 1 > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "indices has too many dims (%zu)", indices.dim());
    return;
  }
  const int64_t rows = weight.sizes()[0];
  const int64_t n = indices.numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = index_value(indices.const_data_ptr(), indices.scalar_type(), i);
    if (v < 0 || v >= rows) {
      a.fail(Error::InvalidArgument,
             "index %lld is out of range for an embedding of %lld rows",
             static_cast<long long>(v), static_cast<long long>(rows));
      return;
    }
  }
  Shape shape = shape_of(indices);
  shape.sizes[shape.dim++] = weight.sizes()[1];
  if (!resize_out(a, out, shape.span()) ||
      !check_index_apart_from_out(a, indices, out, "indices")) {
    return;
  }
  const size_t row = size_t(weight.sizes()[1]) * weight.element_size();
  const char* w = static_cast<const char*>(weight.const_data_ptr());
  char* o = static_cast<char*>(out.mutable_data_ptr());
  for (int64_t i = 0; i < n && row > 0; ++i) {
    const int64_t v = index_value(indices.const_data_ptr(), indices.scalar_type(), i);
    std::memmove(o + size_t(i) * row, w + size_t(v) * row, row);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::embedding.out", embedding_out_boxed);

}  // namespace ember
