// aten::pow.Tensor_Tensor_out, pow.Tensor_Scalar_out, pow.Scalar_out
// (kernels/portable/op_pow.cpp): what the generated suite cannot hold.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// PyTorch: "Integers to negative integer powers are not allowed."
TEST(Pow, IntegerToNegativePowerRefused) {
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto out_i = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*i, -1, *out_i, *out_i}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*i, 0, *out_i, *out_i}), Error::Ok);
  EXPECT_EQ(out_i->values<int32_t>(), (std::vector<int32_t>{1, 1}));
}

}  // namespace
}  // namespace ember::testing
