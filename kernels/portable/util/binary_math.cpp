#include "kernels/portable/util/binary_math.h"

namespace ember {

namespace {

int category(ScalarType t) {
  return t == ScalarType::Bool ? 1 : is_floating_type(t) ? 3 : 2;
}

}  // namespace

bool result_type_of(const Tensor* tensors, size_t count, ScalarType* out) {
  bool has_dim = false, has_zero = false;
  ScalarType dim_type = ScalarType::Bool, zero_type = ScalarType::Bool;
  for (size_t i = 0; i < count; ++i) {
    const ScalarType t = tensors[i].scalar_type();
    bool* has = tensors[i].dim() > 0 ? &has_dim : &has_zero;
    ScalarType* acc = tensors[i].dim() > 0 ? &dim_type : &zero_type;
    if (!*has) {
      if (!is_supported_storage_type(t)) {
        return false;
      }
      *acc = t;
      *has = true;
    } else if (!promote_types(*acc, t, acc)) {
      return false;
    }
  }
  if (!has_dim || !has_zero) {
    *out = has_dim ? dim_type : zero_type;
    return has_dim || has_zero;
  }
  // c10's combine_categories: the zero-dim type only matters when it is of
  // a higher category (or the dimensioned one is Bool).
  if (category(dim_type) == 3 ||
      (dim_type != ScalarType::Bool && category(zero_type) <= category(dim_type))) {
    *out = dim_type;
    return true;
  }
  return promote_types(dim_type, zero_type, out);
}

}  // namespace ember
