#include "kernels/portable/util/reduce_util.h"

namespace ember {

bool make_reduce_plan(KernelArgs& args, Tensor in,
                      Optional<Span<int64_t>> dims, bool keepdim,
                      ReducePlan* plan) {
  const size_t ndim = in.dim();
  bool reduce[kMaxTensorDim] = {};
  const bool all = !dims.has_value() || dims.value().size() == 0;
  if (all) {
    for (size_t d = 0; d < ndim; ++d) {
      reduce[d] = true;
    }
  } else {
    for (int64_t dim : dims.value()) {
      size_t d;
      if (!normalize_dim(args, dim, ndim, "dim", &d)) {
        return false;
      }
      if (ndim > 0 && reduce[d]) {
        return args.fail(Error::InvalidArgument,
                         "dim %zu appears more than once in the reduction", d);
      }
      if (ndim > 0) {
        reduce[d] = true;
      }
    }
  }
  plan->out_shape.dim = 0;
  plan->num_kept = plan->num_reduced = 0;
  plan->reduce_count = 1;
  plan->out_numel = 1;
  for (size_t d = 0; d < ndim; ++d) {
    const int64_t size = in.sizes()[d];
    if (reduce[d]) {
      plan->reduced_sizes[plan->num_reduced] = size;
      plan->reduced_strides[plan->num_reduced] = in.strides()[d];
      ++plan->num_reduced;
      plan->reduce_count *= size;
      if (keepdim) {
        plan->out_shape.sizes[plan->out_shape.dim++] = 1;
      }
    } else {
      plan->kept_sizes[plan->num_kept] = size;
      plan->kept_strides[plan->num_kept] = in.strides()[d];
      ++plan->num_kept;
      plan->out_numel *= size;
      plan->out_shape.sizes[plan->out_shape.dim++] = SizesType(size);
    }
  }
  return true;
}

}  // namespace ember
