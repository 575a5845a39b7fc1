// aten::view_as_real_copy.out (kernels/portable/op_view_as_real_copy.cpp).
// The operator needs a complex self, and Ember's tensors have no complex
// dtypes (a program holding one is rejected at load), so no exported
// program can run it here. The kernel refuses every self it can receive,
// as PyTorch refuses real inputs ("view_as_real is only supported for
// complex tensors"), with a message naming the reason.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(ViewAsRealCopy, RefusesRealSelf) {
  auto self = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel("aten::view_as_real_copy.out", {*self, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("complex"));
  EXPECT_TRUE(message_has("Float"));
  auto d = tensor<double>(ScalarType::Double, {1}, {1});
  auto d_out = empty(ScalarType::Double, {1, 2});
  EXPECT_EQ(call_kernel("aten::view_as_real_copy.out", {*d, *d_out, *d_out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
