#include "kernels/portable/util/mask_util.h"

#include "kernels/portable/util/index_util.h"

namespace ember {

bool check_bool_mask(KernelArgs& args, Tensor mask) {
  if (mask.scalar_type() == ScalarType::Bool) {
    return true;
  }
  return args.fail(Error::InvalidArgument, "mask must be Bool, got %s",
                   scalar_type_name(mask.scalar_type()));
}

void broadcast_strides(Tensor t, const Shape& shape, int64_t* row) {
  const size_t lead = shape.dim - t.dim();
  for (size_t d = 0; d < shape.dim; ++d) {
    row[d] = (d < lead || t.sizes()[d - lead] == 1) ? 0 : t.strides()[d - lead];
  }
}

int64_t count_true(Tensor mask, const Shape& shape) {
  int64_t strides[1][kMaxTensorDim];
  broadcast_strides(mask, shape, strides[0]);
  const uint8_t* m = static_cast<const uint8_t*>(mask.const_data_ptr());
  const int64_t n = shape.numel();
  int64_t count = 0;
  Odometer<1> walk(shape.sizes, shape.dim, strides);
  for (int64_t i = 0; i < n; ++i, walk.next()) {
    count += mask_at(m, walk.offsets()[0]);
  }
  return count;
}

bool broadcast_mask(KernelArgs& a, Tensor self, Tensor mask, Shape* shape,
                    int64_t* count) {
  const Tensor operands[2] = {self, mask};
  if (!broadcast_shapes(a, operands, 2, shape)) {
    return false;
  }
  *count = count_true(mask, *shape);
  return true;
}

}  // namespace ember
