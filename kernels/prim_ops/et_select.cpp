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

#include "kernels/prim_ops/prim_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

using prim::check_arg_count;
using prim::check_tag;
using prim::fail;

constexpr char kEtSelect[] = "executorch_prim::et_select.default";

void et_select(KernelContext& ctx, Span<EValue*> args) {
  const char* op = kEtSelect;
  if (!check_arg_count(ctx, args, op, 4) ||
      !check_tag(ctx, args, op, 0, Tag::Tensor) ||
      !check_tag(ctx, args, op, 1, Tag::Int) ||
      !check_tag(ctx, args, op, 2, Tag::Int) ||
      !check_tag(ctx, args, op, 3, Tag::Tensor)) {
    return;
  }
  const Tensor self = args[0]->to_tensor();
  const int64_t dim = args[1]->to_int();
  int64_t index = args[2]->to_int();
  const Tensor out = args[3]->to_tensor();

  if (self.scalar_type() != out.scalar_type()) {
    fail(ctx, Error::InvalidArgument, op, "self is %s but out is %s",
         scalar_type_name(self.scalar_type()),
         scalar_type_name(out.scalar_type()));
    return;
  }
  const int64_t rank = int64_t(self.dim());
  if (dim < 0 || dim >= rank || rank > int64_t(kMaxTensorDim)) {
    fail(ctx, Error::InvalidArgument, op,
         "dim %" PRId64 " out of range for a tensor of rank %" PRId64, dim,
         rank);
    return;
  }
  const int64_t dim_size = self.sizes()[size_t(dim)];
  if (index < 0) {
    index += dim_size;
  }
  if (index < 0 || index >= dim_size) {
    fail(ctx, Error::InvalidArgument, op,
         "index %" PRId64 " out of range for dim %" PRId64 " of size %" PRId64,
         args[2]->to_int(), dim, dim_size);
    return;
  }
  if (int64_t(out.dim()) != rank - 1) {
    fail(ctx, Error::InvalidArgument, op, "out has %zu dims, expected %" PRId64,
         out.dim(), rank - 1);
    return;
  }
  if (!prim::is_row_major(self) || !prim::is_row_major(out)) {
    fail(ctx, Error::NotSupported, op,
         "self and out must both have row-major dim order to alias");
    return;
  }
  for (int64_t i = 0; i < dim; ++i) {
    if (self.sizes()[size_t(i)] > 1) {
      fail(ctx, Error::NotSupported, op,
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
    prim::fail_with_cause(ctx, err, op);
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
