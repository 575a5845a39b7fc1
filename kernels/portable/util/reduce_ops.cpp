#include "kernels/portable/util/reduce_ops.h"

namespace ember {

bool require_floating(KernelArgs& a, Tensor t, const char* what) {
  if (is_floating_type(t.scalar_type())) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "%s must be floating, got %s", what,
                scalar_type_name(t.scalar_type()));
}

bool reduce_prologue(KernelArgs& a, Tensor self, Optional<Span<int64_t>> dims,
                     bool keepdim, Tensor out, bool nonempty, ReducePlan* plan,
                     bool empty_means_all) {
  if (!a.ok() ||
      (!a.prepared() &&
       (!check_supported_dtype(a, self, "self") || !check_supported_dtype(a, out, "out") ||
        !check_contiguous(a, self, "self") || !check_contiguous(a, out, "out"))) ||
      !make_reduce_plan(a, self, dims, keepdim, plan, empty_means_all)) {
    return false;
  }
  if (nonempty && plan->reduce_count == 0) {
    return a.fail(Error::InvalidArgument,
                  "cannot reduce over a zero-size dim (no identity)");
  }
  return match_out_shape(a, out, plan->out_shape.span());
}

bool dim_prologue(KernelArgs& a, Tensor self, Optional<int64_t> dim,
                  bool keepdim, const Tensor* outs, size_t count, bool nonempty,
                  DimSplit* split) {
  if (!a.ok()) {
    return false;
  }
  if (!a.prepared()) {
    if (!check_supported_dtype(a, self, "self") || !check_contiguous(a, self, "self")) {
      return false;
    }
    for (size_t i = 0; i < count; ++i) {
      if (!check_contiguous(a, outs[i], "out")) {
        return false;
      }
    }
  }
  Shape shape;
  const size_t ndim = self.dim();
  if (!dim.has_value()) {
    split->outer = 1;
    split->size = self.numel();
    split->inner = 1;
    shape.dim = keepdim ? ndim : 0;
    for (size_t d = 0; d < shape.dim; ++d) {
      shape.sizes[d] = 1;
    }
  } else {
    size_t d;
    if (!normalize_dim(a, dim.value(), ndim, "dim", &d)) {
      return false;
    }
    *split = ndim == 0 ? DimSplit{} : split_at_dim(self, d);
    shape = shape_of(self);
    if (ndim > 0) {
      if (keepdim) {
        shape.sizes[d] = 1;
      } else {
        for (size_t k = d; k + 1 < ndim; ++k) {
          shape.sizes[k] = shape.sizes[k + 1];
        }
        --shape.dim;
      }
    }
  }
  if (nonempty && split->size == 0) {
    return a.fail(Error::InvalidArgument,
                  "cannot reduce over a zero-size dim (no identity)");
  }
  // No element, so no output element either: no work. (Without this, a
  // hostile shape such as [117440514, 0, 9] walks every outer position.)
  if (self.numel() == 0) {
    split->outer = 0;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!match_out_shape(a, outs[i], shape.span())) {
      return false;
    }
  }
  return true;
}

}  // namespace ember
