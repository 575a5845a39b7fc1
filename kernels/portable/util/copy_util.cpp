#include "kernels/portable/util/copy_util.h"

#include <cstring>

#include "kernels/math/transpose.h"
#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {

namespace {

// Operand 0 of the plan is the destination, operand 1 the source.
void run_copy(const ElementwisePlan& plan, const void* src, ScalarType st,
              void* dst, ScalarType dt) {
  const int64_t ses = int64_t(element_size(st));
  const int64_t des = int64_t(element_size(dt));
  const char* s = static_cast<const char*>(src);
  char* d = static_cast<char*>(dst);
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    if (st == dt && stride[0] == 1 && stride[1] == 1) {
      std::memmove(d + off[0] * des, s + off[1] * ses, size_t(n * des));
    } else if (st == dt && is_complex_type(st)) {
      // No conversion handles complex elements: they are moved as bytes.
      for (int64_t i = 0; i < n; ++i) {
        std::memmove(d + (off[0] + i * stride[0]) * des, s + (off[1] + i * stride[1]) * ses,
                     size_t(des));
      }
    } else {
      (void)convert_elements(s + off[1] * ses, st, stride[1], d + off[0] * des,
                             dt, stride[0], n);
    }
  });
}

}  // namespace

bool copy_broadcast(KernelArgs& args, Tensor src, Tensor out) {
  ElementwisePlan plan;
  if (!make_elementwise_plan(args, out, &src, 1, &plan)) {
    return false;
  }
  run_copy(plan, src.const_data_ptr(), src.scalar_type(), out.mutable_data_ptr(),
           out.scalar_type());
  return true;
}

// When the view is a permutation of a dense source of out's dtype and out
// is contiguous: the kernel maths library's transpose (tiled, threaded).
// False when the view is anything else (broadcast, gaps, overlap).
bool copy_as_transpose(const void* src_data, ScalarType src_type, const int64_t* src_strides,
                       Tensor out) {
  if (src_type != out.scalar_type() || !out.is_contiguous() || out.numel() < 2) {
    return false;
  }
  // The dims that are not 1, in out's order, then sorted by source stride
  // (outermost first): that order is the source's own dim order.
  size_t n = 0, order[kMaxTensorDim];
  for (size_t d = 0; d < out.dim(); ++d) {
    if (out.sizes()[d] != 1) order[n++] = d;
  }
  size_t sorted[kMaxTensorDim];
  for (size_t i = 0; i < n; ++i) sorted[i] = order[i];
  for (size_t i = 1; i < n; ++i) {  // insertion sort, stride descending
    for (size_t j = i; j > 0 && src_strides[sorted[j - 1]] < src_strides[sorted[j]]; --j) {
      const size_t t = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }
  }
  size_t in_dims[kMaxTensorDim], perm[kMaxTensorDim];
  int64_t dense = 1;
  for (size_t i = n; i-- > 0;) {
    if (src_strides[sorted[i]] != dense) return false;
    in_dims[i] = size_t(out.sizes()[sorted[i]]);
    dense *= out.sizes()[sorted[i]];
  }
  for (size_t i = 0; i < n; ++i) {  // out dim i reads source dim perm[i]
    for (size_t j = 0; j < n; ++j) {
      if (sorted[j] == order[i]) perm[i] = j;
    }
  }
  math::transpose(out.element_size(), n, in_dims, perm, src_data, out.mutable_data_ptr());
  return true;
}

void copy_strided_view(const void* src_data, ScalarType src_type,
                       const int64_t* src_strides, Tensor out) {
  if (copy_as_transpose(src_data, src_type, src_strides, out)) {
    return;
  }
  int64_t strides[1][kMaxTensorDim];
  for (size_t d = 0; d < out.dim(); ++d) {
    strides[0][d] = src_strides[d];
  }
  ElementwisePlan plan;
  make_plan_from_strides(out, strides, 1, &plan);
  run_copy(plan, src_data, src_type, out.mutable_data_ptr(), out.scalar_type());
}

void copy_into_strided_view(Tensor src, void* dst_data, ScalarType dst_type,
                            const int64_t* dst_strides) {
  // One plan dim per src dim, outermost first (no merging: the runs are
  // src's last dim); a zero-dim src is one run of one element.
  ElementwisePlan plan;
  plan.num_operands = 2;
  plan.ndim = src.dim() == 0 ? 1 : src.dim();
  plan.numel = src.numel();
  plan.sizes[0] = 1;
  plan.strides[0][0] = plan.strides[1][0] = 0;
  for (size_t d = 0; d < src.dim(); ++d) {
    plan.sizes[d] = src.sizes()[d];
    plan.strides[0][d] = dst_strides[d];
    plan.strides[1][d] = src.strides()[d];
  }
  run_copy(plan, src.const_data_ptr(), src.scalar_type(), dst_data, dst_type);
}

void identity_copy(KernelContext& ctx, Span<EValue*> args, const char* name) {
  KernelArgs a(ctx, args, name, 3);
  const Tensor self = a.tensor(0), out = a.tensor(1);
  if (!a.ok() || !check_same_dtype(a, self, out) || !resize_out(a, out, self.sizes())) {
    return;
  }
  (void)copy_broadcast(a, self, out);
}

}  // namespace ember
