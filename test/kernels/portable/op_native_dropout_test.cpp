// aten::native_dropout.out (kernels/portable/op_native_dropout.cpp):
// inference mode copies, training mode is refused.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(NativeDropout, TrainingModeIsRefused) {
  auto a = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto out = empty(ScalarType::Float, {2});
  auto mask = empty(ScalarType::Bool, {2});
  EXPECT_EQ(call_kernel("aten::native_dropout.out", {*a, 0.5, true, *out, *mask, *out, *mask}),
            Error::NotSupported);
  ASSERT_EQ(call_kernel("aten::native_dropout.out", {*a, 0.5, false, *out, *mask, *out, *mask}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace ember::testing
