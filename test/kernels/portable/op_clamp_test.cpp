// aten::clamp.out and clamp.Tensor_out (kernels/portable/op_clamp.cpp):
// argument checks the generated suite cannot hold.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Clamp, BoundsMustBeGivenAndFit) {
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out_f = empty(ScalarType::Float, {2});
  // clamp needs a bound.
  EXPECT_EQ(call_kernel("aten::clamp.out", {*f, Arg::none(), Arg::none(), *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::clamp.Tensor_out",
                        {*f, Arg::none(), Arg::none(), *out_f, *out_f}),
            Error::InvalidArgument);
  // A Scalar bound outside an integral result's range is refused.
  auto u8 = tensor<uint8_t>(ScalarType::Byte, {2}, {1, 0});
  auto out_u8 = empty(ScalarType::Byte, {2});
  EXPECT_EQ(call_kernel("aten::clamp.out", {*u8, -1, 100, *out_u8, *out_u8}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
