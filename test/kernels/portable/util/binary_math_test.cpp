// Shared bodies of the two-input math kernels
// (kernels/portable/util/binary_math.h), through the operators that use
// them: integer division by zero is an error for every division-like op
// (the check lives here, not in each op), a Bool divisor promotes to the
// dividend's type, and the dtypes these kernels refuse.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(BinaryMath, IntegerZeroDivisorIsAnErrorForEveryOp) {
  auto a = tensor<int64_t>(ScalarType::Long, {3}, {7, -7, 1});
  auto b = tensor<int64_t>(ScalarType::Long, {3}, {2, 0, 3});
  auto out = empty(ScalarType::Long, {3});
  for (const char* op : {"aten::remainder.Tensor_out", "aten::fmod.Tensor_out",
                         "aten::floor_divide.out"}) {
    EXPECT_EQ(call_kernel(op, {*a, *b, *out, *out}), Error::InvalidArgument) << op;
    EXPECT_TRUE(message_has("division by zero")) << op << ": " << last_error_message();
  }
  for (const char* mode : {"trunc", "floor"}) {
    EXPECT_EQ(call_kernel("aten::div.out_mode", {*a, *b, Arg::string(mode), *out, *out}),
              Error::InvalidArgument)
        << mode;
    EXPECT_EQ(call_kernel("aten::div.Scalar_mode_out",
                          {*a, int64_t(0), Arg::string(mode), *out, *out}),
              Error::InvalidArgument)
        << mode;
  }
  for (const char* op : {"aten::remainder.Scalar_out", "aten::fmod.Scalar_out"}) {
    EXPECT_EQ(call_kernel(op, {*a, 0, *out, *out}), Error::InvalidArgument) << op;
  }
}

// A Bool divisor promotes to the dividend's type: False divides by zero.
TEST(BinaryMath, BoolFalseDivisorIsZero) {
  auto a = tensor<int8_t>(ScalarType::Char, {2}, {-128, 5});
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out = empty(ScalarType::Char, {2});
  EXPECT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out, *out}),
            Error::InvalidArgument);
}

TEST(BinaryMath, RefusedDtypes) {
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto f = tensor<float>(ScalarType::Float, {2}, {1.5f, -2});
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto out_b = empty(ScalarType::Bool, {2});
  auto out_f = empty(ScalarType::Float, {2});
  auto out_i = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::bitwise_and.Tensor_out", {*f, *i, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::bitwise_or.Scalar_out", {*i, 1.5, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::remainder.Tensor_out", {*b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Tensor_out", {*b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::rsub.Scalar_out", {*b, 1, 1, *out_i, *out_i}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::clamp.Tensor_out", {*b, *b, *b, *out_b, *out_b}),
            Error::InvalidArgument);
  // A float result cannot be written into an integer out tensor.
  EXPECT_EQ(call_kernel("aten::maximum.out", {*i, *f, *out_i, *out_i}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
