#include "kernels/portable/util/reduce_util.h"

namespace ember {

bool make_reduce_plan(KernelArgs& args, Tensor in,
                      Optional<Span<int64_t>> dims, bool keepdim,
                      ReducePlan* plan, bool empty_means_all) {
  const size_t ndim = in.dim();
  bool reduce[kMaxTensorDim] = {};
  const bool all = !dims.has_value() ||
                   (empty_means_all && dims.value().size() == 0);
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
  plan->in_numel = in.numel();
  // Loop form: merge runs of kept / reduced dims, drop size-1 dims.
  plan->loop_dims = 0;
  for (size_t d = 0; d < ndim; ++d) {
    const int64_t size = in.sizes()[d];
    if (size == 1) {
      continue;
    }
    if (plan->loop_dims > 0 && plan->loop_reduced[plan->loop_dims - 1] == reduce[d]) {
      plan->loop_sizes[plan->loop_dims - 1] *= size;
    } else {
      plan->loop_sizes[plan->loop_dims] = size;
      plan->loop_reduced[plan->loop_dims] = reduce[d];
      ++plan->loop_dims;
    }
  }
  if (plan->loop_dims == 0) {
    plan->loop_sizes[0] = 1;
    plan->loop_reduced[0] = true;
    plan->loop_dims = 1;
  }
  int64_t stride = 1;
  size_t reduced_loops = 0;
  for (size_t d = plan->loop_dims; d-- > 0;) {
    if (plan->loop_reduced[d]) {
      plan->loop_out_strides[d] = 0;
      ++reduced_loops;
    } else {
      plan->loop_out_strides[d] = stride;
      stride *= plan->loop_sizes[d];
    }
  }
  plan->trailing = reduced_loops == 0 ||
                   (reduced_loops == 1 && plan->loop_reduced[plan->loop_dims - 1]);
  return true;
}

DimSplit split_at_dim(Tensor in, size_t dim) {
  DimSplit s;
  for (size_t d = 0; d < in.dim(); ++d) {
    const int64_t size = in.sizes()[d];
    if (d < dim) {
      s.outer *= size;
    } else if (d == dim) {
      s.size = size;
    } else {
      s.inner *= size;
    }
  }
  return s;
}

void* reduce_temp(KernelArgs& args, KernelContext& ctx, int64_t count,
                  size_t element_size) {
  if (count <= 0) {
    count = 1;
  }
  void* p = ctx.allocate_temp(size_t(count) * element_size, 16);
  if (p == nullptr) {
    args.fail(Error::MemoryAllocationFailed,
              "needs %lld bytes of temp memory (temp allocator absent or full)",
              static_cast<long long>(count) * static_cast<long long>(element_size));
  }
  return p;
}

}  // namespace ember
