// quantized_decomposed::dequantize_per_channel.out
// (kernels/portable/op_dequantize_per_channel.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// A zero point at INT64_MIN: q - zp wraps like PyTorch's int64 subtraction
// instead of overflowing.
TEST(DequantizePerChannel, ExtremeZeroPoint) {
  auto q = tensor<int8_t>(ScalarType::Char, {2}, {1, -1});
  auto scales = tensor<float>(ScalarType::Float, {2}, {1.0f, 2.0f});
  auto zps = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MIN, 0});
  auto out = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel("quantized_decomposed::dequantize_per_channel.out",
                        {*q, *scales, *zps, 0, -128, 127, int64_t(ScalarType::Char),
                         Arg::none(), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{float(INT64_MIN + 1), -2.0f}));
}

}  // namespace
}  // namespace ember::testing
