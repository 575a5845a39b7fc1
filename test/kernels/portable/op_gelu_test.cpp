// aten::gelu.out (kernels/portable/op_gelu.cpp): the approximate string.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Gelu, UnknownApproximateRefused) {
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out_f = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::gelu.out", {*f, Arg::string("erf"), *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("'erf'")) << last_error_message();
}

}  // namespace
}  // namespace ember::testing
