// aten::embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1,
//     bool scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out)
// out[..., :] = weight[indices[...], :]; out is indices' shape plus
// weight's row size. padding_idx only matters for training. Contiguous
// tensors; an index outside [0, num_embeddings) is an error.
//
// A prepared kernel: Prepare checks dtypes, layout and ranks and sizes out
// (the indices' values are data, not read then); Prepared calls skip those
// and check every index, and that indices and out do not overlap, at every
// call.
#include <cstring>

#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The checks on dtypes, layout and ranks (Prepared calls skip them).
bool check_embedding(KernelArgs& a, Tensor weight, Tensor indices, Tensor out) {
  if (!check_same_dtype(a, weight, out) || !check_index_tensor(a, indices, "indices") ||
      !check_contiguous(a, weight, "weight") || !check_contiguous(a, indices, "indices") ||
      !check_contiguous(a, out, "out")) {
    return false;
  }
  if (weight.dim() != 2) {
    return a.fail(Error::InvalidArgument, "weight must be 2-D, got %zu dims", weight.dim());
  }
  if (indices.dim() + 1 > kMaxTensorDim) {
    return a.fail(Error::InvalidArgument, "indices has too many dims (%zu)", indices.dim());
  }
  return true;
}

void embedding_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::embedding.out", 7);
  const Tensor weight = a.tensor(0);
  const Tensor indices = a.tensor(1);
  (void)a.int_value(2);
  (void)a.bool_value(3);
  (void)a.bool_value(4);
  const Tensor out = a.tensor(5);
  if (!a.ok() || (!a.prepared() && !check_embedding(a, weight, indices, out))) {
    return;
  }
  Shape shape = shape_of(indices);
  shape.sizes[shape.dim++] = weight.sizes()[1];
  if (a.preparing()) {
    // The index values and out's overlap are checked when the call runs.
    (void)(resize_out(a, out, shape.span()) && a.prepared_stop());
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
  if ((!a.prepared() && !resize_out(a, out, shape.span())) ||
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

EMBER_REGISTER_PREPARED_KERNEL("aten::embedding.out", embedding_out_boxed);

}  // namespace ember
