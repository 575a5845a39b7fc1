// The shared body of the binary bitwise operators: bitwise_and, _or, _xor
// (Tensor_out and Scalar_out) and bitwise_left_shift, _right_shift
// (Tensor_out and Tensor_Scalar_out). Each operator's file registers
// bitwise_tensor_kernel / bitwise_scalar_kernel with its Bitwise value, so
// only that operation is instantiated there; kBitwiseNames (indexed by
// Bitwise) holds the names the kernels report in their messages.
//
//   <op>.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
//   <op>.Scalar_out / <op>.Tensor_Scalar_out(Tensor self, Scalar other, *,
//                                             Tensor(a!) out)
// out = op(self, other), broadcasting, in PyTorch's promoted type, which
// must be integral: floating operands are refused, as in PyTorch. and, or
// and xor also take Bool (logical); the shifts refuse a Bool result, as
// PyTorch does.
//
// Shifts follow PyTorch's CPU kernels, with every shift count defined:
// x << n is x's bits moved left and wrapped to the type (0 when n < 0 or
// n >= the type's width); x >> n is arithmetic for signed types (for
// n < 0 or n >= width - 1 a signed x gives its sign, 0 or -1) and logical
// for Byte (0 when n >= 8). A Scalar count must fit the promoted type, as
// every Scalar operand must (with_scalar_operand, arithmetic.h).
#pragma once

#include <climits>
#include <type_traits>

#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/math_util.h"

namespace ember {

enum class Bitwise { kAnd, kOr, kXor, kLeftShift, kRightShift };

template <typename C>
inline C shift_left_value(C x, C n) {
  using U = std::make_unsigned_t<C>;
  constexpr unsigned kBits = sizeof(C) * CHAR_BIT;
  if (static_cast<U>(n) >= kBits) {  // a negative n is a large U
    return C(0);
  }
  return static_cast<C>(static_cast<U>(static_cast<U>(x) << static_cast<unsigned>(n)));
}

template <typename C>
inline C shift_right_value(C x, C n) {
  constexpr unsigned kBits = sizeof(C) * CHAR_BIT;
  if constexpr (std::is_signed<C>::value) {
    const unsigned count = (n < 0 || n >= C(kBits - 1)) ? kBits - 1 : unsigned(n);
    // ~(~x >> count) shifts a negative x arithmetically without relying
    // on the implementation-defined right shift of a negative value.
    return x < 0 ? C(~(~x >> count)) : C(x >> count);
  } else {
    return n >= C(kBits) ? C(0) : C(x >> n);
  }
}

template <Bitwise kOp, typename C>
inline C bitwise_value(C x, C y) {
  if constexpr (kOp == Bitwise::kAnd) {
    return static_cast<C>(x & y);
  } else if constexpr (kOp == Bitwise::kOr) {
    return static_cast<C>(x | y);
  } else if constexpr (kOp == Bitwise::kXor) {
    return static_cast<C>(x ^ y);
  } else if constexpr (kOp == Bitwise::kLeftShift) {
    return shift_left_value(x, y);
  } else {
    return shift_right_value(x, y);
  }
}

template <Bitwise kOp>
void bitwise_run(KernelArgs& a, Tensor self, Tensor other, Tensor out, ScalarType result) {
  constexpr bool kShift = kOp == Bitwise::kLeftShift || kOp == Bitwise::kRightShift;
  if (!is_integral_type(result, /*include_bool=*/!kShift)) {
    a.fail(Error::InvalidArgument, "%s needs integral%s operands (result type is %s)",
           kShift ? "a bit shift" : "a bitwise op", kShift ? "" : " or Bool",
           scalar_type_name(result));
    return;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, result, &plan)) {
    return;
  }
  visit_integral_dtype(result, [&](auto tag) {
    using C = typename decltype(tag)::type;
    if constexpr (!kShift || !std::is_same<C, bool>::value) {
      binary_elementwise<C, C>(plan, self, other, out,
                               [](C x, C y) { return bitwise_value<kOp>(x, y); });
    }
  });
}

// The operator names, for messages: {Tensor form, Scalar form}.
struct BitwiseNames {
  const char* tensor_out;
  const char* scalar_out;
};

constexpr BitwiseNames kBitwiseNames[] = {
    {"aten::bitwise_and.Tensor_out", "aten::bitwise_and.Scalar_out"},
    {"aten::bitwise_or.Tensor_out", "aten::bitwise_or.Scalar_out"},
    {"aten::bitwise_xor.Tensor_out", "aten::bitwise_xor.Scalar_out"},
    {"aten::bitwise_left_shift.Tensor_out", "aten::bitwise_left_shift.Tensor_Scalar_out"},
    {"aten::bitwise_right_shift.Tensor_out", "aten::bitwise_right_shift.Tensor_Scalar_out"},
};

template <Bitwise kOp>
void bitwise_tensor_kernel(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, kBitwiseNames[int(kOp)].tensor_out, bitwise_run<kOp>);
}

template <Bitwise kOp>
void bitwise_scalar_kernel(KernelContext& ctx, Span<EValue*> args) {
  binary_scalar_kernel(ctx, args, kBitwiseNames[int(kOp)].scalar_out, bitwise_run<kOp>);
}

}  // namespace ember
