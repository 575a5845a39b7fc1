// aten::t_copy.out (kernels/portable/op_t_copy.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(TCopy, TwoDAndRankRefused) {
  auto a = tensor<int64_t>(ScalarType::Long, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Long, {3, 2});
  ASSERT_EQ(call_kernel("aten::t_copy.out", {*a, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  auto three = tensor<float>(ScalarType::Float, {1, 1, 1}, {1});
  auto o3 = empty(ScalarType::Float, {1, 1, 1});
  EXPECT_EQ(call_kernel("aten::t_copy.out", {*three, *o3, *o3}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
