// executorch_prim::et_view.default(Tensor self, int[] size) -> Tensor
//
// Args: [self, size, out]. The emitter uses this instead of view_copy when
// it can prove the copy is unnecessary: `out` is resized to `size` and made
// to alias self's data (no bytes move). Like torch.view, at most one entry
// of `size` may be -1 and is inferred from self's numel (not when another
// entry is 0); other entries must be >= 0 and fit the tensor size type.
//
// Failures (the kernel fails; out's data pointer is left unchanged):
//   InvalidArgument  dtype mismatch, len(size) != out.dim(), a bad size
//                    entry, a numel that does not match self's;
//   NotSupported     self or out not in row-major dim order (an alias would
//                    reinterpret the bytes in a different order), or out
//                    cannot take the shape (its resize error is reported).
#include <cinttypes>
#include <cstdint>
#include <limits>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr char kEtView[] = "executorch_prim::et_view.default";

// Fills `out_sizes` (out.dim() entries) from `size`, inferring a -1.
bool view_target_sizes(KernelArgs& a, Tensor self, Span<int64_t> size,
                       SizesType* out_sizes) {
  int64_t inferred = -1;
  bool has_zero = false;
  int64_t known = 1;  // product of the entries other than -1
  for (size_t i = 0; i < size.size(); ++i) {
    const int64_t s = size[i];
    if (s == -1) {
      if (inferred != -1) {
        return a.fail(Error::InvalidArgument,
                      "at most one size may be -1 (dims %" PRId64 " and %zu)",
                      inferred, i);
      }
      inferred = int64_t(i);
      continue;
    }
    if (s < 0 || s > std::numeric_limits<SizesType>::max()) {
      return a.fail(Error::InvalidArgument,
                    "size %" PRId64 " at dim %zu is invalid", s, i);
    }
    has_zero = has_zero || s == 0;
    if (__builtin_mul_overflow(known, s, &known)) {
      return a.fail(Error::InvalidArgument,
                    "the product of the sizes overflows int64");
    }
    out_sizes[i] = SizesType(s);
  }
  if (inferred >= 0) {
    if (has_zero) {
      return a.fail(Error::InvalidArgument,
                    "cannot infer the size of dim %" PRId64
                    " when another size is 0",
                    inferred);
    }
    if (self.numel() % known != 0) {
      return a.fail(Error::InvalidArgument,
                    "cannot view %" PRId64 " elements with %" PRId64
                    " elements per inferred slice",
                    self.numel(), known);
    }
    const int64_t s = self.numel() / known;
    if (s > std::numeric_limits<SizesType>::max()) {
      return a.fail(Error::InvalidArgument,
                    "inferred size %" PRId64 " is too large", s);
    }
    out_sizes[inferred] = SizesType(s);
  }
  return true;
}

void et_view(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kEtView, 3);
  const Tensor self = a.tensor_maybe_unbound(0);
  const Span<int64_t> size = a.int_list(1);
  const Tensor out = a.tensor_maybe_unbound(2);
  if (!a.ok()) {
    return;
  }

  if (self.scalar_type() != out.scalar_type()) {
    a.fail(Error::InvalidArgument, "self is %s but out is %s",
           scalar_type_name(self.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  if (size.size() != out.dim()) {
    a.fail(Error::InvalidArgument,
           "size has %zu entries but out has %zu dims", size.size(), out.dim());
    return;
  }
  if (!self.is_contiguous() || !out.is_contiguous()) {
    a.fail(Error::NotSupported,
           "self and out must both have row-major dim order to alias");
    return;
  }
  if (out.dim() > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "out has %zu dims, more than %zu",
           out.dim(), kMaxTensorDim);
    return;
  }
  SizesType target[kMaxTensorDim];
  if (!view_target_sizes(a, self, size, target)) {
    return;
  }
  int64_t numel = 1;
  for (size_t i = 0; i < out.dim(); ++i) {
    numel *= target[i];  // cannot overflow: checked in view_target_sizes
  }
  if (numel != self.numel()) {
    a.fail(Error::InvalidArgument,
           "shape has %" PRId64 " elements but self has %" PRId64, numel,
           self.numel());
    return;
  }
  const Error err = resize_tensor(out, {target, out.dim()});
  if (err != Error::Ok) {
    a.fail_with_cause(err);
    return;
  }
  out.impl()->set_data(self.mutable_data_ptr());
}

}  // namespace

EMBER_REGISTER_KERNEL(kEtView, et_view);

}  // namespace ember
