// aten::sub.out and aten::sub.Scalar_out (kernels/portable/op_sub.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Sub, IntAlpha) {
  auto a = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto b = tensor<float>(ScalarType::Float, {3}, {1, 1, 1});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::sub.out", {*a, *b, 2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{-1, 0, 1}));
}

// Subtraction with bool is refused.
TEST(Sub, BoolRefused) {
  auto a = from_doubles(ScalarType::Bool, {4}, {0, 1, 0, 1});
  auto b = from_doubles(ScalarType::Bool, {4}, {0, 0, 1, 1});
  auto out = empty(ScalarType::Bool, {4});
  EXPECT_EQ(call_kernel("aten::sub.out", {*a, *b, 1, *out, *out}),
            Error::InvalidArgument);
}

TEST(Sub, ScalarOverload) {
  auto i = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto iout = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::sub.Scalar_out", {*i, 1, 3, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{-2, -1, 0}));
}

}  // namespace
}  // namespace ember::testing
