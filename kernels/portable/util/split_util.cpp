#include "kernels/portable/util/split_util.h"

#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {

bool split_into(KernelArgs& args, Tensor self, size_t dim,
                const int64_t* sizes, size_t count, Span<Tensor> outs,
                bool squeeze) {
  if (outs.size() != count) {
    return args.fail(Error::InvalidArgument,
                     "out has %zu tensors; the split makes %zu", outs.size(),
                     count);
  }
  // total <= the dim's size at every step, so no sum can overflow.
  const int64_t dim_size = self.sizes()[dim];
  int64_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] < 0) {
      return args.fail(Error::InvalidArgument, "split size %lld is negative",
                       static_cast<long long>(sizes[i]));
    }
    if (sizes[i] > dim_size - total) {
      total = -1;
      break;
    }
    total += sizes[i];
  }
  if (total != dim_size) {
    return args.fail(Error::InvalidArgument,
                     "split sizes do not sum to dim %zu's size %d", dim,
                     int(self.sizes()[dim]));
  }
  // Prepare every out before writing any.
  for (size_t i = 0; i < count; ++i) {
    if (outs[i].scalar_type() != self.scalar_type()) {
      return args.fail(Error::InvalidArgument,
                       "out[%zu] dtype %s differs from self dtype %s", i,
                       scalar_type_name(outs[i].scalar_type()),
                       scalar_type_name(self.scalar_type()));
    }
    Shape shape;
    for (size_t k = 0; k < self.dim(); ++k) {
      if (k == dim && squeeze) {
        continue;
      }
      shape.sizes[shape.dim++] = k == dim ? SizesType(sizes[i]) : self.sizes()[k];
    }
    if (!resize_out(args, outs[i], shape.span())) {
      return false;
    }
  }
  int64_t strides[kMaxTensorDim];
  size_t n = 0;
  for (size_t k = 0; k < self.dim(); ++k) {
    if (!(k == dim && squeeze)) {
      strides[n++] = self.strides()[k];
    }
  }
  const char* base = static_cast<const char*>(self.const_data_ptr());
  const int64_t step = self.strides()[dim] * int64_t(self.element_size());
  int64_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] > 0) {
      copy_strided_view(base + offset * step, self.scalar_type(), strides,
                        outs[i]);
    }
    offset += sizes[i];
  }
  return true;
}

}  // namespace ember
