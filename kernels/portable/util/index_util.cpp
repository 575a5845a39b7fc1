#include "kernels/portable/util/index_util.h"

namespace ember {

bool check_index_tensor(KernelArgs& args, Tensor t, const char* what) {
  if (t.scalar_type() == ScalarType::Long || t.scalar_type() == ScalarType::Int) {
    return true;
  }
  return args.fail(Error::InvalidArgument, "%s must be Long or Int, got %s",
                   what, scalar_type_name(t.scalar_type()));
}

bool check_index_apart_from_out(KernelArgs& args, Tensor index, Tensor out,
                                const char* what) {
  const uintptr_t i0 = reinterpret_cast<uintptr_t>(index.const_data_ptr());
  const uintptr_t o0 = reinterpret_cast<uintptr_t>(out.const_data_ptr());
  const size_t in = index.nbytes(), on = out.nbytes();
  if (in == 0 || on == 0 || i0 + in <= o0 || o0 + on <= i0) {
    return true;
  }
  return args.fail(Error::InvalidArgument,
                   "%s shares memory with the output (its values are checked before "
                   "the kernel writes)",
                   what);
}

bool check_indices_apart_from_out(KernelArgs& args, Span<Optional<Tensor>> indices,
                                  Tensor out) {
  for (const Optional<Tensor>& t : indices) {
    if (t.has_value() && !check_index_apart_from_out(args, t.value(), out, "indices")) {
      return false;
    }
  }
  return true;
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
