// quantized_decomposed::quantize_per_token.out
// (kernels/portable/op_quantize_per_token.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "quantized_decomposed::quantize_per_token.out";

TEST(QuantizePerToken, ZeroPointAddedBeforeRounding) {
  // Token 0: scale 0.5, zp 1: 0.25 / 0.5 + 1 = 1.5 -> 2 (half to even),
  // -0.75 / 0.5 + 1 = -0.5 -> -0. Token 1: scale 1, zp -3, clamped.
  auto x = tensor<float>(ScalarType::Float, {2, 2}, {0.25f, -0.75f, 200.0f, -200.0f});
  auto s = tensor<double>(ScalarType::Double, {2, 1}, {0.5, 1.0});
  auto z = tensor<int64_t>(ScalarType::Long, {2, 1}, {1, -3});
  auto q = empty(ScalarType::Char, {2, 2});
  ASSERT_EQ(call_kernel(kOp, {*x, *s, *z, -128, 127, int64_t(ScalarType::Char), *q, *q}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(q->values<int8_t>(), (std::vector<int8_t>{2, 0, 127, -128}));
}

TEST(QuantizePerToken, RefusesBadArguments) {
  auto x = empty(ScalarType::Float, {2, 2});
  auto s = empty(ScalarType::Double, {3});
  auto z = empty(ScalarType::Long, {2});
  auto q = empty(ScalarType::Char, {2, 2});
  EXPECT_EQ(call_kernel(kOp, {*x, *s, *z, -128, 127, int64_t(ScalarType::Char), *q, *q}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("one value per token (2)"));
  auto s2 = empty(ScalarType::Double, {2});
  EXPECT_EQ(call_kernel(kOp, {*x, *s2, *z, 0, 255, int64_t(ScalarType::Byte), *q, *q}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*x, *s2, *z, -128, 300, int64_t(ScalarType::Char), *q, *q}),
            Error::InvalidArgument);
  auto is = empty(ScalarType::Long, {2});
  EXPECT_EQ(call_kernel(kOp, {*x, *is, *z, -128, 127, int64_t(ScalarType::Char), *q, *q}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
