#include "kernels/portable/util/type_promotion.h"

#include "kernels/portable/util/dtype_util.h"

namespace ember {

namespace {

// Rank of a floating type by promotion; Half and BFloat16 tie.
int float_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16: return 1;
    case ScalarType::Float: return 2;
    case ScalarType::Double: return 3;
    default: return 0;
  }
}

int signed_int_bytes(ScalarType t) {
  switch (t) {
    case ScalarType::Char: return 1;
    case ScalarType::Short: return 2;
    case ScalarType::Int: return 4;
    case ScalarType::Long: return 8;
    default: return 0;
  }
}

ScalarType signed_int_of_bytes(int bytes) {
  switch (bytes) {
    case 1: return ScalarType::Char;
    case 2: return ScalarType::Short;
    case 4: return ScalarType::Int;
    default: return ScalarType::Long;
  }
}

ScalarType promote_supported(ScalarType a, ScalarType b) {
  if (a == b) {
    return a;
  }
  if (a == ScalarType::Bool) {
    return b;
  }
  if (b == ScalarType::Bool) {
    return a;
  }
  const int fa = float_rank(a), fb = float_rank(b);
  if (fa != 0 || fb != 0) {
    if (fa == 1 && fb == 1) {
      return ScalarType::Float;  // Half with BFloat16
    }
    return fa >= fb ? a : b;
  }
  // Both integral, different.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    const ScalarType other = a == ScalarType::Byte ? b : a;
    // uint8 with a signed type needs the next wider signed type when the
    // signed one is int8; otherwise the signed one already holds it.
    return other == ScalarType::Char ? ScalarType::Short : other;
  }
  const int ba = signed_int_bytes(a), bb = signed_int_bytes(b);
  return signed_int_of_bytes(ba > bb ? ba : bb);
}

enum class Category { None, Bool, Integral, Floating };

Category category(ScalarType t) {
  if (t == ScalarType::Bool) {
    return Category::Bool;
  }
  return is_floating_type(t) ? Category::Floating : Category::Integral;
}

// c10's combine_categories: `higher` has priority, `lower` only matters if
// it is of a higher category. `has_higher` false means no such operand.
ScalarType combine(bool has_higher, ScalarType higher, ScalarType lower) {
  if (!has_higher) {
    return lower;
  }
  if (category(higher) == Category::Floating) {
    return higher;
  }
  if (higher == ScalarType::Bool || category(lower) == Category::Floating) {
    return promote_supported(higher, lower);
  }
  return higher;
}

}  // namespace

bool promote_types(ScalarType a, ScalarType b, ScalarType* out) {
  if (!is_supported_storage_type(a) || !is_supported_storage_type(b)) {
    return false;
  }
  *out = promote_supported(a, b);
  return true;
}

ScalarType scalar_dtype(const Scalar& s) {
  return s.is_bool() ? ScalarType::Bool
         : s.is_integral() ? ScalarType::Long
                           : ScalarType::Float;
}

bool result_type(Tensor a, Tensor b, ScalarType* out) {
  const ScalarType ta = a.scalar_type(), tb = b.scalar_type();
  if (!is_supported_storage_type(ta) || !is_supported_storage_type(tb)) {
    return false;
  }
  const bool a_dim = a.dim() > 0, b_dim = b.dim() > 0;
  if (a_dim == b_dim) {
    *out = promote_supported(ta, tb);
  } else {
    *out = a_dim ? combine(true, ta, tb) : combine(true, tb, ta);
  }
  return true;
}

bool result_type(Tensor t, const Scalar& s, ScalarType* out) {
  const ScalarType tt = t.scalar_type();
  if (!is_supported_storage_type(tt)) {
    return false;
  }
  *out = combine(true, tt, scalar_dtype(s));
  return true;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && is_integral_type(to, /*include_bool=*/true)) {
    return false;
  }
  if (from != ScalarType::Bool && to == ScalarType::Bool) {
    return false;
  }
  return true;
}

}  // namespace ember
