// aten::as_strided_copy.out(Tensor self, SymInt[] size, SymInt[] stride,
//     SymInt? storage_offset=None, *, Tensor(a!) out)
// out[i0, i1, ...] = storage[storage_offset + sum_d i_d * stride[d]], where
// storage is self's data buffer read flat (its numel elements, whatever
// its dim order) and storage_offset defaults to 0 (a program's tensors own
// their storage from element 0). Strides must be non-negative (PyTorch
// refuses negative ones) and every element read must lie inside self: a
// program cannot make this kernel read outside its input. An empty result
// reads nothing and accepts any offset >= 0, like PyTorch.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void as_strided_copy_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::as_strided_copy.out", 6);
  const Tensor self = a.tensor(0);
  const Span<int64_t> size = a.int_list(1);
  const Span<int64_t> stride = a.int_list(2);
  const Optional<int64_t> storage_offset = a.optional_int(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, self, out)) {
    return;
  }
  if (size.size() != stride.size()) {
    a.fail(Error::InvalidArgument, "size has %zu entries but stride has %zu",
           size.size(), stride.size());
    return;
  }
  Shape shape;
  if (!to_shape(a, size, "size", &shape)) {
    return;
  }
  const int64_t offset = storage_offset.has_value() ? storage_offset.value() : 0;
  if (offset < 0) {
    a.fail(Error::InvalidArgument, "storage_offset %lld is negative",
           static_cast<long long>(offset));
    return;
  }
  for (size_t d = 0; d < stride.size(); ++d) {
    if (stride[d] < 0) {
      a.fail(Error::InvalidArgument, "stride[%zu] = %lld is negative", d,
             static_cast<long long>(stride[d]));
      return;
    }
  }
  if (shape.numel() > 0) {
    // The last element read: offset + sum (size - 1) * stride, which must
    // stay below self's numel (an overflow is past it too).
    int64_t last = offset;
    bool overflow = false;
    for (size_t d = 0; d < shape.dim; ++d) {
      int64_t reach = 0;
      overflow = overflow ||
                 __builtin_mul_overflow(int64_t(shape.sizes[d] - 1), stride[d], &reach) ||
                 __builtin_add_overflow(last, reach, &last);
    }
    if (overflow || last >= self.numel()) {
      a.fail(Error::InvalidArgument,
             "size, stride and storage_offset %lld reach past self's %lld elements",
             static_cast<long long>(offset), static_cast<long long>(self.numel()));
      return;
    }
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  if (shape.numel() == 0) {
    return;  // nothing to read: the strides (any size) are never applied
  }
  const char* base = static_cast<const char*>(self.const_data_ptr()) +
                     offset * int64_t(self.element_size());
  copy_strided_view(base, self.scalar_type(), stride.data(), out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::as_strided_copy.out", as_strided_copy_out_boxed);

}  // namespace ember
