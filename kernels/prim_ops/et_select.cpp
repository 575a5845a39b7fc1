// executorch_prim::et_select.default(Tensor self, int dim, int index)
//     -> Tensor
//
// Args: [self, dim, index, out]. Like aten::select but without a copy: out is
// resized to self's shape without `dim` and made to alias self's data at
// slot `index` (upstream kernels/prim_ops/et_select.cpp). As upstream, dim
// must be in [0, self.dim()) and a negative index counts from the end.
//
// Aliasing is only correct when the selected elements are contiguous, i.e.
// self is row-major and every dim before `dim` has size 1 (always true for
// dim 0). Upstream assumes this; Ember checks it and fails with NotSupported
// otherwise. Other failures: InvalidArgument for a dtype mismatch, an
// out-of-range dim or index, or an out rank other than self.dim() - 1; a
// resize error of out is reported as is.
#include <cinttypes>
#include <cstdint>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr char kEtSelect[] = "executorch_prim::et_select.default";

void et_select(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kEtSelect, 4);
  const Tensor self = a.tensor_maybe_unbound(0);
  const int64_t dim = a.int_value(1);
  int64_t index = a.int_value(2);
  const Tensor out = a.tensor_maybe_unbound(3);
  if (!a.ok()) {
    return;
  }

  if (self.scalar_type() != out.scalar_type()) {
    a.fail(Error::InvalidArgument, "self is %s but out is %s",
           scalar_type_name(self.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  const int64_t rank = int64_t(self.dim());
  if (dim < 0 || dim >= rank || rank > int64_t(kMaxTensorDim)) {
    a.fail(Error::InvalidArgument,
           "dim %" PRId64 " out of range for a tensor of rank %" PRId64, dim,
           rank);
    return;
  }
  const int64_t dim_size = self.sizes()[size_t(dim)];
  if (index < 0) {
    index += dim_size;
  }
  if (index < 0 || index >= dim_size) {
    a.fail(Error::InvalidArgument,
           "index %" PRId64 " out of range for dim %" PRId64
           " of size %" PRId64,
           args[2]->to_int(), dim, dim_size);
    return;
  }
  if (int64_t(out.dim()) != rank - 1) {
    a.fail(Error::InvalidArgument, "out has %zu dims, expected %" PRId64,
           out.dim(), rank - 1);
    return;
  }
  if (!self.is_contiguous() || !out.is_contiguous()) {
    a.fail(Error::NotSupported,
           "self and out must both have row-major dim order to alias");
    return;
  }
  for (int64_t i = 0; i < dim; ++i) {
    if (self.sizes()[size_t(i)] > 1) {
      a.fail(Error::NotSupported,
             "selecting along dim %" PRId64 " is not contiguous (dim %" PRId64
             " has size %d)",
             dim, i, int(self.sizes()[size_t(i)]));
      return;
    }
  }

  SizesType target[kMaxTensorDim];
  size_t n = 0;
  for (size_t i = 0; i < self.dim(); ++i) {
    if (int64_t(i) != dim) {
      target[n++] = self.sizes()[i];
    }
  }
  const Error err = resize_tensor(out, {target, n});
  if (err != Error::Ok) {
    a.fail_with_cause(err);
    return;
  }
  const size_t offset =
      size_t(index) * size_t(self.strides()[size_t(dim)]) * self.element_size();
  char* base = self.mutable_data_ptr<char>();
  out.impl()->set_data(base == nullptr ? nullptr : base + offset);
}

}  // namespace

EMBER_REGISTER_KERNEL(kEtSelect, et_select);

}  // namespace ember
