// aten::unsqueeze_copy.out (kernels/portable/op_unsqueeze_copy.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(UnsqueezeCopy, Dims) {
  auto in = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto u = empty(ScalarType::Float, {3, 1});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, -1, *u, *u}), Error::Ok);
  EXPECT_EQ(u->values<float>(), (std::vector<float>{1, 2, 3}));
  auto u0 = empty(ScalarType::Float, {1, 3});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, 0, *u0, *u0}), Error::Ok);
  EXPECT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, 2, *u0, *u0}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
