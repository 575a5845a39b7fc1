#include "kernels/portable/util/index_util.h"

namespace ember {

bool check_index_tensor(KernelArgs& args, Tensor t, const char* what) {
  if (t.scalar_type() == ScalarType::Long || t.scalar_type() == ScalarType::Int) {
    return true;
  }
  return args.fail(Error::InvalidArgument, "%s must be Long or Int, got %s",
                   what, scalar_type_name(t.scalar_type()));
}

bool index_changed(KernelArgs& args, int64_t value) {
  return args.fail(Error::InvalidArgument,
                   "index value %lld, checked in range, was out of range when used: "
                   "the index tensor shares memory with the output",
                   static_cast<long long>(value));
}

bool normalize_index(KernelArgs& args, int64_t index, int64_t size,
                     size_t dim, const char* what, int64_t* out) {
  if (index < -size || index >= size) {
    return args.fail(Error::InvalidArgument,
                     "%s %lld is out of bounds for dim %zu with size %lld",
                     what, static_cast<long long>(index), dim,
                     static_cast<long long>(size));
  }
  *out = index < 0 ? index + size : index;
  return true;
}

}  // namespace ember
