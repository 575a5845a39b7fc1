// aten::bitwise_left_shift.Tensor_out and .Tensor_Scalar_out
// (kernels/portable/op_bitwise_left_shift.cpp): every integral dtype,
// counts outside [0, width) (0, as PyTorch's CPU kernel gives), promotion,
// broadcasting and the refusals. Expected values are PyTorch 2.13's.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kTensorOut = "aten::bitwise_left_shift.Tensor_out";
constexpr const char* kScalarOut = "aten::bitwise_left_shift.Tensor_Scalar_out";

TEST(BitwiseLeftShift, EveryIntegralDtypeAndCountsOutOfRange) {
  auto i8 = tensor<int8_t>(ScalarType::Char, {4}, {1, -3, 100, 5});
  auto n8 = tensor<int8_t>(ScalarType::Char, {4}, {0, 2, 7, -1});
  auto out8 = empty(ScalarType::Char, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*i8, *n8, *out8, *out8}), Error::Ok);
  EXPECT_EQ(out8->values<int8_t>(), (std::vector<int8_t>{1, -12, 0, 0}));

  auto u8 = tensor<uint8_t>(ScalarType::Byte, {4}, {1, 200, 100, 5});
  auto nu8 = tensor<uint8_t>(ScalarType::Byte, {4}, {0, 2, 7, 9});
  auto outu8 = empty(ScalarType::Byte, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*u8, *nu8, *outu8, *outu8}), Error::Ok);
  EXPECT_EQ(outu8->values<uint8_t>(), (std::vector<uint8_t>{1, 32, 0, 0}));

  auto i16 = tensor<int16_t>(ScalarType::Short, {4}, {1, -3, 100, 5});
  auto n16 = tensor<int16_t>(ScalarType::Short, {4}, {0, 2, 7, 16});
  auto out16 = empty(ScalarType::Short, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*i16, *n16, *out16, *out16}), Error::Ok);
  EXPECT_EQ(out16->values<int16_t>(), (std::vector<int16_t>{1, -12, 12800, 0}));

  auto i32 = tensor<int32_t>(ScalarType::Int, {4}, {1, -3, 100, 5});
  auto n32 = tensor<int32_t>(ScalarType::Int, {4}, {0, 2, 31, -1});
  auto out32 = empty(ScalarType::Int, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*i32, *n32, *out32, *out32}), Error::Ok);
  EXPECT_EQ(out32->values<int32_t>(), (std::vector<int32_t>{1, -12, 0, 0}));

  const int64_t lowest = std::numeric_limits<int64_t>::lowest();
  auto i64 = tensor<int64_t>(ScalarType::Long, {4}, {-(int64_t(1) << 62), 3, 1, 1});
  auto n64 = tensor<int64_t>(ScalarType::Long, {4}, {1, 63, 64, -64});
  auto out64 = empty(ScalarType::Long, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*i64, *n64, *out64, *out64}), Error::Ok);
  EXPECT_EQ(out64->values<int64_t>(), (std::vector<int64_t>{lowest, lowest, 0, 0}));
}

TEST(BitwiseLeftShift, PromotionBroadcastingAndScalar) {
  // Char << Long promotes to Long; [2, 1] against [3] broadcasts to [2, 3].
  auto a = tensor<int8_t>(ScalarType::Char, {2, 1}, {1, -1});
  auto n = tensor<int64_t>(ScalarType::Long, {3}, {0, 1, 40});
  auto out = empty(ScalarType::Long, {2, 3});
  ASSERT_EQ(call_kernel(kTensorOut, {*a, *n, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(),
            (std::vector<int64_t>{1, 2, int64_t(1) << 40, -1, -2, -(int64_t(1) << 40)}));

  // An int Scalar keeps the tensor's dtype.
  auto b = tensor<int8_t>(ScalarType::Char, {3}, {1, 2, 64});
  auto out8 = empty(ScalarType::Char, {3});
  ASSERT_EQ(call_kernel(kScalarOut, {*b, 3, *out8, *out8}), Error::Ok);
  EXPECT_EQ(out8->values<int8_t>(), (std::vector<int8_t>{8, 16, 0}));

  // A Bool tensor with an int Scalar computes in Long, as in PyTorch.
  auto flags = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out_long = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel(kScalarOut, {*flags, 1, *out_long, *out_long}), Error::Ok);
  EXPECT_EQ(out_long->values<int64_t>(), (std::vector<int64_t>{2, 0}));
}

TEST(BitwiseLeftShift, RefusesFloatingAndBoolResults) {
  auto f = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto flags = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out_f = empty(ScalarType::Float, {2});
  auto out_i = empty(ScalarType::Int, {2});
  auto out_b = empty(ScalarType::Bool, {2});
  EXPECT_EQ(call_kernel(kTensorOut, {*f, *i, *out_f, *out_f}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("aten::bitwise_left_shift.Tensor_out")) << last_error_message();
  EXPECT_EQ(call_kernel(kScalarOut, {*i, 1.5, *out_f, *out_f}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kTensorOut, {*flags, *flags, *out_b, *out_b}), Error::InvalidArgument);
  // The result (Int) must fit out.
  auto short_out = empty(ScalarType::Int, {3});
  EXPECT_NE(call_kernel(kTensorOut, {*i, *i, *short_out, *short_out}), Error::Ok);
  EXPECT_EQ(call_kernel(kTensorOut, {*i, *i, *out_i, *out_i}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
