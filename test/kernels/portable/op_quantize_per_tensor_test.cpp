// quantized_decomposed::quantize_per_tensor.out
// (kernels/portable/op_quantize_per_tensor.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(QuantizePerTensor, RoundHalfEvenAndClamp) {
  auto x = tensor<float>(ScalarType::Float, {4}, {0.25f, 0.75f, 1000.0f, -1000.0f});
  auto q = empty(ScalarType::Char, {4});
  ASSERT_EQ(call_kernel("quantized_decomposed::quantize_per_tensor.out",
                        {*x, 0.5, 0, -128, 127, int64_t(ScalarType::Char), *q, *q}),
            Error::Ok);
  EXPECT_EQ(q->values<int8_t>(), (std::vector<int8_t>{0, 2, 127, -128}));
  // dtype argument must match out.
  EXPECT_EQ(call_kernel("quantized_decomposed::quantize_per_tensor.out",
                        {*x, 0.5, 0, 0, 255, int64_t(ScalarType::Byte), *q, *q}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
