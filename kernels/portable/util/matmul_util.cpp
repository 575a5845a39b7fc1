#include "kernels/portable/util/matmul_util.h"

#include "kernels/portable/util/shape_util.h"

namespace ember {

bool check_matmul_operands(KernelArgs& args, const Tensor* tensors,
                           const char* const* names, size_t count,
                           size_t dim) {
  const ScalarType type = tensors[0].scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    return args.fail(Error::NotSupported,
                     "dtype %s is not supported (Float or Double)",
                     scalar_type_name(type));
  }
  for (size_t i = 0; i < count; ++i) {
    const Tensor& t = tensors[i];
    if (t.scalar_type() != type) {
      return args.fail(Error::InvalidArgument, "%s has dtype %s, expected %s",
                       names[i], scalar_type_name(t.scalar_type()),
                       scalar_type_name(type));
    }
    if (dim != 0 && t.dim() != dim) {
      return args.fail(Error::InvalidArgument, "%s must have %zu dims, has %zu",
                       names[i], dim, t.dim());
    }
    if (!check_contiguous(args, t, names[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace ember
