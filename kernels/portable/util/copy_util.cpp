#include "kernels/portable/util/copy_util.h"

#include <cstring>

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/elementwise.h"

namespace ember {

namespace {

void run_copy(const ElementwisePlan& plan, const void* src, ScalarType st,
              Tensor out) {
  const ScalarType dt = out.scalar_type();
  const int64_t ses = int64_t(element_size(st));
  const int64_t des = int64_t(out.element_size());
  const char* s = static_cast<const char*>(src);
  char* d = static_cast<char*>(out.mutable_data_ptr());
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    if (st == dt && stride[0] == 1 && stride[1] == 1) {
      std::memmove(d + off[0] * des, s + off[1] * ses, size_t(n * des));
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
  run_copy(plan, src.const_data_ptr(), src.scalar_type(), out);
  return true;
}

void copy_strided_view(const void* src_data, ScalarType src_type,
                       const int64_t* src_strides, Tensor out) {
  int64_t strides[1][kMaxTensorDim];
  for (size_t d = 0; d < out.dim(); ++d) {
    strides[0][d] = src_strides[d];
  }
  ElementwisePlan plan;
  make_plan_from_strides(out, strides, 1, &plan);
  run_copy(plan, src_data, src_type, out);
}

}  // namespace ember
