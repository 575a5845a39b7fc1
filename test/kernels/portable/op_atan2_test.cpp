// aten::atan2.out (kernels/portable/op_atan2.cpp): what an exported program
// cannot express: a Float result into a Half out, refused out dtypes and
// shapes. Values, promotion, broadcasting and edge cases: the op suite
// (atan2__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Atan2, OutDtypeAndShape) {
  auto y = tensor<float>(ScalarType::Float, {2}, {1.0f, -1.0f});
  auto x = tensor<float>(ScalarType::Float, {2, 1}, {2.0f, -0.0f});
  auto half = empty(ScalarType::Half, {2, 2});
  ASSERT_EQ(call_kernel("aten::atan2.out", {*y, *x, *half, *half}), Error::Ok);
  // From PyTorch 2.13: torch.ops.aten.atan2.out(y, x, out=float16 out).
  EXPECT_EQ(to_doubles(*half), (std::vector<double>{0.463623046875, -0.463623046875,
                                                    1.5703125, -1.5703125}));
  // A Float result cannot be written into an integral out, even for
  // integral operands.
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto int_out = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::atan2.out", {*i, *i, *int_out, *int_out}),
            Error::InvalidArgument);
  // Shapes that do not broadcast, and a static out of the wrong shape.
  auto three = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto out3 = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::atan2.out", {*y, *three, *out3, *out3}),
            Error::InvalidArgument);
  auto out4 = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::atan2.out", {*y, *x, *out4, *out4}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
