// executorch_prim::et_copy_index.tensor(Tensor copy_to, Tensor copy_from,
//                                       int index)
//
// Args: [copy_to, copy_from, index] (the emitter writes no return value).
// Used by lowered control flow (map): each iteration's result `copy_from` is
// copied into slot `index` of `copy_to` along dim 0, so that afterwards
// copy_to[index] == copy_from. As upstream, when copy_to's dim 0 is shorter
// than index + 1 it is resized to [index + 1, *copy_from.sizes] (so the
// accumulator grows one slot per iteration; this needs a dynamic-shape
// copy_to with enough capacity).
//
// Failures (nothing is copied):
//   InvalidArgument  dtype mismatch; copy_to.dim() != copy_from.dim() + 1;
//                    index < 0 or too large; copy_to.sizes[1:] !=
//                    copy_from.sizes (after any resize);
//   NotSupported     a tensor not in row-major dim order, or copy_to cannot
//                    grow (its resize error is reported).
#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr char kEtCopyIndex[] = "executorch_prim::et_copy_index.tensor";

void et_copy_index(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kEtCopyIndex, 3);
  const Tensor copy_to = a.tensor_maybe_unbound(0);
  const Tensor copy_from = a.tensor_maybe_unbound(1);
  const int64_t index = a.int_value(2);
  if (!a.ok()) {
    return;
  }

  if (copy_to.scalar_type() != copy_from.scalar_type()) {
    a.fail(Error::InvalidArgument, "copy_to is %s but copy_from is %s",
           scalar_type_name(copy_to.scalar_type()),
           scalar_type_name(copy_from.scalar_type()));
    return;
  }
  if (copy_to.dim() != copy_from.dim() + 1 || copy_to.dim() > kMaxTensorDim) {
    a.fail(Error::InvalidArgument,
           "copy_to has %zu dims; expected one more than copy_from's %zu",
           copy_to.dim(), copy_from.dim());
    return;
  }
  if (index < 0 || index >= std::numeric_limits<SizesType>::max()) {
    a.fail(Error::InvalidArgument, "index %" PRId64 " is out of range",
           index);
    return;
  }
  if (!copy_to.is_contiguous() || !copy_from.is_contiguous()) {
    a.fail(Error::NotSupported,
           "copy_to and copy_from must both have row-major dim order");
    return;
  }

  // Grow dim 0 to index + 1 if needed (upstream's rule).
  if (copy_to.sizes()[0] <= index) {
    SizesType grown[kMaxTensorDim];
    grown[0] = SizesType(index + 1);
    for (size_t i = 0; i < copy_from.dim(); ++i) {
      grown[i + 1] = copy_from.sizes()[i];
    }
    const Error err = resize_tensor(copy_to, {grown, copy_to.dim()});
    if (err != Error::Ok) {
      a.fail_with_cause(err);
      return;
    }
  }
  for (size_t i = 0; i < copy_from.dim(); ++i) {
    if (copy_to.sizes()[i + 1] != copy_from.sizes()[i]) {
      a.fail(Error::InvalidArgument,
             "copy_to size %d at dim %zu does not match copy_from size %d at "
             "dim %zu",
             int(copy_to.sizes()[i + 1]), i + 1, int(copy_from.sizes()[i]), i);
      return;
    }
  }

  // copy_to.sizes()[0] > index and its slots have copy_from's shape, so the
  // slot lies inside copy_to.
  const size_t slot_bytes = copy_from.nbytes();
  if (slot_bytes == 0) {
    return;
  }
  if (copy_to.mutable_data_ptr() == nullptr ||
      copy_from.const_data_ptr() == nullptr) {
    a.fail(Error::InvalidArgument, "tensor has no data");
    return;
  }
  char* dst = copy_to.mutable_data_ptr<char>() + size_t(index) * slot_bytes;
  memmove(dst, copy_from.const_data_ptr(), slot_bytes);
}

}  // namespace

EMBER_REGISTER_KERNEL(kEtCopyIndex, et_copy_index);

}  // namespace ember
