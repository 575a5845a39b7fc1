// aten::masked_fill.Scalar_out (kernels/portable/op_masked_fill.cpp):
// argument checks the generated suite cannot hold.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// The mask must be Bool; the value must fit the dtype.
TEST(MaskedFill, MaskMustBeBoolAndValueMustFit) {
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out_i = empty(ScalarType::Int, {2});
  auto out_f = empty(ScalarType::Float, {2});
  auto u8 = tensor<uint8_t>(ScalarType::Byte, {2}, {1, 0});
  auto mask = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto out_u8 = empty(ScalarType::Byte, {2});
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*f, *u8, 1.0, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*u8, *mask, 300, *out_u8, *out_u8}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::masked_fill.Scalar_out", {*i, *mask, 1e20, *out_i, *out_i}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
