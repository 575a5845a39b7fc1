// aten::div.out, div.out_mode, div.Scalar_out, div.Scalar_mode_out
// (kernels/portable/op_div.cpp). Integer division by zero and the rounding
// modes' INT_MIN / -1 are in util/binary_math_test.cpp and
// util/math_util_test.cpp.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Div, IsTrueDivision) {
  auto a = tensor<int32_t>(ScalarType::Int, {4}, {7, -7, 1, 0});
  auto b = tensor<int32_t>(ScalarType::Int, {4}, {2, 2, 0, 0});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::div.out", {*a, *b, *out, *out}), Error::Ok);
  auto v = out->values<float>();
  EXPECT_EQ(v[0], 3.5f);
  EXPECT_EQ(v[1], -3.5f);
  EXPECT_TRUE(std::isinf(v[2]));
  EXPECT_TRUE(std::isnan(v[3]));
  auto iout = empty(ScalarType::Int, {4});
  EXPECT_EQ(call_kernel("aten::div.out", {*a, *b, *iout, *iout}),
            Error::InvalidArgument);
}

TEST(Div, UnknownRoundingModeRefused) {
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out_f = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::div.out_mode", {*f, *f, Arg::string("round"), *out_f, *out_f}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
