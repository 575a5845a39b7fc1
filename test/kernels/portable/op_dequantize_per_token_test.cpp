// quantized_decomposed::dequantize_per_token.out
// (kernels/portable/op_dequantize_per_token.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "quantized_decomposed::dequantize_per_token.out";

TEST(DequantizePerToken, PerRowScaleAndZeroPoint) {
  auto q = tensor<int8_t>(ScalarType::Char, {2, 2}, {3, -1, 127, -128});
  auto s = tensor<double>(ScalarType::Double, {2, 1}, {0.5, 0.25});
  auto z = tensor<int64_t>(ScalarType::Long, {2, 1}, {1, -128});
  auto out = empty(ScalarType::Float, {2, 2});
  ASSERT_EQ(call_kernel(kOp, {*q, *s, *z, -128, 127, int64_t(ScalarType::Char),
                              int64_t(ScalarType::Float), *out, *out}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1.0f, -1.0f, 63.75f, 0.0f}));
}

TEST(DequantizePerToken, RefusesBadArguments) {
  auto q = empty(ScalarType::Char, {2, 2});
  auto s = empty(ScalarType::Double, {2});
  auto z = empty(ScalarType::Long, {2});
  auto out = empty(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_kernel(kOp, {*q, *s, *z, -128, 127, int64_t(ScalarType::Char),
                              int64_t(ScalarType::Half), *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("output_dtype"));
  auto z1 = empty(ScalarType::Long, {1});
  EXPECT_EQ(call_kernel(kOp, {*q, *s, *z1, -128, 127, int64_t(ScalarType::Char),
                              int64_t(ScalarType::Float), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*q, *s, *z, 0, 255, int64_t(ScalarType::Byte),
                              int64_t(ScalarType::Float), *out, *out}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 2});
  EXPECT_EQ(call_kernel(kOp, {*q, *s, *z, -128, 127, int64_t(ScalarType::Char),
                              int64_t(ScalarType::Int), *iout, *iout}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
