// aten::floor_divide.out (kernels/portable/op_floor_divide.cpp). Integer
// division by zero is in util/binary_math_test.cpp.
#include <limits>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(FloorDivide, FloatDivisionByZeroIsIeee) {
  auto a = tensor<float>(ScalarType::Float, {3}, {1, -1, 0});
  auto b = tensor<float>(ScalarType::Float, {3}, {0, 0, 0});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::floor_divide.out", {*a, *b, *out, *out}), Error::Ok);
  const std::vector<float> got = out->values<float>();
  EXPECT_EQ(got[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(got[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(got[2]));
}

}  // namespace
}  // namespace ember::testing
