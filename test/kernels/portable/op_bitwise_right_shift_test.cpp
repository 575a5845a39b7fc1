// aten::bitwise_right_shift.Tensor_out and .Tensor_Scalar_out
// (kernels/portable/op_bitwise_right_shift.cpp): arithmetic shifts of
// signed dtypes and logical of Byte, counts outside the type's width (the
// sign, as PyTorch's CPU kernel gives), the Scalar form and the refusals.
// Expected values are PyTorch 2.13's.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kTensorOut = "aten::bitwise_right_shift.Tensor_out";
constexpr const char* kScalarOut = "aten::bitwise_right_shift.Tensor_Scalar_out";

TEST(BitwiseRightShift, SignedUnsignedAndCountsOutOfRange) {
  auto i8 = tensor<int8_t>(ScalarType::Char, {6}, {1, -3, 100, 5, -100, 100});
  auto n8 = tensor<int8_t>(ScalarType::Char, {6}, {0, 2, 7, -1, 8, 9});
  auto out8 = empty(ScalarType::Char, {6});
  ASSERT_EQ(call_kernel(kTensorOut, {*i8, *n8, *out8, *out8}), Error::Ok);
  EXPECT_EQ(out8->values<int8_t>(), (std::vector<int8_t>{1, -1, 0, 0, -1, 0}));

  auto u8 = tensor<uint8_t>(ScalarType::Byte, {4}, {1, 200, 100, 200});
  auto nu8 = tensor<uint8_t>(ScalarType::Byte, {4}, {0, 2, 7, 9});
  auto outu8 = empty(ScalarType::Byte, {4});
  ASSERT_EQ(call_kernel(kTensorOut, {*u8, *nu8, *outu8, *outu8}), Error::Ok);
  EXPECT_EQ(outu8->values<uint8_t>(), (std::vector<uint8_t>{1, 50, 0, 0}));

  auto i16 = tensor<int16_t>(ScalarType::Short, {3}, {-32768, 12800, -1});
  auto n16 = tensor<int16_t>(ScalarType::Short, {3}, {15, 7, 3});
  auto out16 = empty(ScalarType::Short, {3});
  ASSERT_EQ(call_kernel(kTensorOut, {*i16, *n16, *out16, *out16}), Error::Ok);
  EXPECT_EQ(out16->values<int16_t>(), (std::vector<int16_t>{-1, 100, -1}));

  auto i32 = tensor<int32_t>(ScalarType::Int, {3}, {-7, 7, 1 << 30});
  auto n32 = tensor<int32_t>(ScalarType::Int, {3}, {1, 1, 30});
  auto out32 = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel(kTensorOut, {*i32, *n32, *out32, *out32}), Error::Ok);
  EXPECT_EQ(out32->values<int32_t>(), (std::vector<int32_t>{-4, 3, 1}));

  auto i64 = tensor<int64_t>(ScalarType::Long, {3}, {-(int64_t(1) << 62), 3, -5});
  auto n64 = tensor<int64_t>(ScalarType::Long, {3}, {64, 63, -1});
  auto out64 = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel(kTensorOut, {*i64, *n64, *out64, *out64}), Error::Ok);
  EXPECT_EQ(out64->values<int64_t>(), (std::vector<int64_t>{-1, 0, -1}));
}

TEST(BitwiseRightShift, ScalarFormAndRefusals) {
  auto a = tensor<int32_t>(ScalarType::Int, {2, 2}, {-16, 16, 255, -1});
  auto out = empty(ScalarType::Int, {2, 2});
  ASSERT_EQ(call_kernel(kScalarOut, {*a, 2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{-4, 4, 63, -1}));

  auto f = tensor<double>(ScalarType::Double, {2}, {1, 2});
  auto out_f = empty(ScalarType::Double, {2});
  EXPECT_EQ(call_kernel(kScalarOut, {*f, 1, *out_f, *out_f}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("aten::bitwise_right_shift.Tensor_Scalar_out"))
      << last_error_message();
  auto flags = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out_b = empty(ScalarType::Bool, {2});
  EXPECT_EQ(call_kernel(kTensorOut, {*flags, *flags, *out_b, *out_b}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
