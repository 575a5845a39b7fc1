// Element arithmetic with PyTorch's semantics: integers wrap on overflow
// (computed in unsigned arithmetic, so no undefined behaviour), bool add is
// "or" and bool mul is "and"; true division promotes to floating.
//
// binary_out_prologue() is the shared prepare phase of the broadcasting
// binary kernels (add, sub, mul, div, comparisons, logical ops).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/scalar_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

namespace detail {
template <typename T>
using WrapType = typename std::conditional<
    (sizeof(T) < sizeof(uint32_t)), uint32_t,
    typename std::make_unsigned<T>::type>::type;
}  // namespace detail

template <typename T>
inline T add_values(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<T>::value) {
    using U = detail::WrapType<T>;
    return static_cast<T>(U(a) + U(b));
  } else {
    return a + b;
  }
}

template <typename T>
inline T sub_values(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = detail::WrapType<T>;
    return static_cast<T>(U(a) - U(b));
  } else {
    return a - b;
  }
}

template <typename T>
inline T mul_values(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else if constexpr (std::is_integral<T>::value) {
    using U = detail::WrapType<T>;
    return static_cast<T>(U(a) * U(b));
  } else {
    return a * b;
  }
}

// Prepare phase of a broadcasting binary kernel writing `out`: checks that
// the dtypes are supported and that `result` (the computation's type) can
// be cast to out's dtype, resizes out to the broadcast shape of a and b and
// builds the plan. Returns false when the kernel must return: a failure,
// or the end of a Prepare call (KernelArgs::preparing()). A Prepared call
// skips the checks and the resize and only builds the plan.
bool binary_out_prologue(KernelArgs& args, Tensor a, Tensor b, Tensor out,
                         ScalarType result, ElementwisePlan* plan);

// Same for one input (out takes its shape).
bool unary_out_prologue(KernelArgs& args, Tensor in, Tensor out,
                        ScalarType result, ElementwisePlan* plan);

// PyTorch's alpha rules for add/sub: a Bool alpha only with a Bool
// result, a floating alpha only with a floating result.
bool check_alpha(KernelArgs& args, const Scalar& alpha, ScalarType result);

// Runs body(Tensor) with scalar `s` wrapped as a zero-dim tensor of the
// compute type of `result` (see ScalarOperand); fails instead if the scalar
// does not fit that type.
template <typename F>
void with_scalar_operand(KernelArgs& args, const Scalar& s, ScalarType result,
                         F&& body) {
  ScalarOperand holder;
  bool made = false;
  const bool known =
      visit_compute_dtype(compute_type_for(result), [&](auto tag) {
        using C = typename decltype(tag)::type;
        C v{};
        if (scalar_to(args, s, "other", &v)) {
          ScalarOperand::make(&holder, v);
          made = true;
        }
      });
  if (!known) {
    args.fail(Error::InvalidArgument, "unsupported result dtype %s",
              scalar_type_name(result));
    return;
  }
  if (made) {
    body(holder.tensor());
  }
}

// Records "unsupported dtype" for the result type of two operands.
bool fail_result_type(KernelArgs& args, ScalarType a, ScalarType b);

// PyTorch's result type of a binary op's operands (type_promotion.h), or
// false after failing the kernel with fail_result_type().
bool operand_result_type(KernelArgs& args, Tensor self, Tensor other, ScalarType* result);
bool operand_result_type(KernelArgs& args, Tensor self, const Scalar& other, ScalarType* result);

}  // namespace ember
