#include "kernels/portable/util/elementwise.h"

#include "kernels/portable/util/shape_util.h"

namespace ember {

namespace {

// Every input has out's sizes and dim order, so all are dense in the same
// layout: one run over numel elements.
bool same_layout(Tensor out, const Tensor* inputs, size_t num_inputs) {
  const Span<const SizesType> sizes = out.sizes();
  const Span<const DimOrderType> order = out.dim_order();
  for (size_t k = 0; k < num_inputs; ++k) {
    const Span<const SizesType> s = inputs[k].sizes();
    const Span<const DimOrderType> o = inputs[k].dim_order();
    if (s.size() != sizes.size()) return false;
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] != sizes[d] || o[d] != order[d]) return false;
    }
  }
  return true;
}

}  // namespace

bool make_elementwise_plan(KernelArgs& args, Tensor out, const Tensor* inputs,
                           size_t num_inputs, ElementwisePlan* plan) {
  if (same_layout(out, inputs, num_inputs)) {
    plan->num_operands = num_inputs + 1;
    plan->numel = out.numel();
    plan->ndim = 1;
    plan->sizes[0] = out.numel();
    for (size_t k = 0; k < plan->num_operands; ++k) plan->strides[k][0] = 1;
    return true;
  }
  const size_t ndim = out.dim();
  const Span<const SizesType> out_sizes = out.sizes();
  int64_t strides[kMaxElementwiseOperands - 1][kMaxTensorDim];
  for (size_t k = 0; k < num_inputs; ++k) {
    const Tensor& in = inputs[k];
    if (!broadcasts_to(in.sizes(), out_sizes)) {
      return args.fail(Error::InvalidArgument,
                       "input %zu (%zu dims) does not broadcast to the output "
                       "shape (%zu dims)",
                       k, in.dim(), ndim);
    }
    const size_t lead = ndim - in.dim();
    for (size_t d = 0; d < ndim; ++d) {
      const bool broadcast = d < lead || in.sizes()[d - lead] == 1;
      strides[k][d] = broadcast ? 0 : in.strides()[d - lead];
    }
  }
  make_plan_from_strides(out, strides, num_inputs, plan);
  return true;
}

void make_plan_from_strides(Tensor out,
                            const int64_t (*input_strides)[kMaxTensorDim],
                            size_t num_inputs, ElementwisePlan* plan) {
  const size_t ndim = out.dim();
  const Span<const SizesType> out_sizes = out.sizes();
  plan->num_operands = num_inputs + 1;
  plan->numel = out.numel();
  auto stride_of = [&](size_t k, size_t d) -> int64_t {
    return k == 0 ? int64_t(out.strides()[d]) : input_strides[k - 1][d];
  };

  // Walk dims in the output's memory order, dropping size-1 dims and merging
  // a dim into the previous one when every operand is contiguous across them.
  size_t n = 0;
  for (size_t i = 0; i < ndim; ++i) {
    const size_t d = out.dim_order()[i];
    const int64_t size = out_sizes[d];
    if (size == 1) {
      continue;
    }
    bool merge = n > 0;
    for (size_t k = 0; merge && k < plan->num_operands; ++k) {
      // A product that overflows cannot equal a real stride: no merge.
      int64_t span = 0;
      merge = !__builtin_mul_overflow(stride_of(k, d), size, &span) &&
              plan->strides[k][n - 1] == span;
    }
    if (merge) {
      plan->sizes[n - 1] *= size;
      for (size_t k = 0; k < plan->num_operands; ++k) {
        plan->strides[k][n - 1] = stride_of(k, d);
      }
      continue;
    }
    plan->sizes[n] = size;
    for (size_t k = 0; k < plan->num_operands; ++k) {
      plan->strides[k][n] = stride_of(k, d);
    }
    ++n;
  }
  if (n == 0) {
    plan->sizes[0] = 1;
    for (size_t k = 0; k < plan->num_operands; ++k) {
      plan->strides[k][0] = 0;
    }
    n = 1;
  }
  plan->ndim = n;
}

}  // namespace ember
