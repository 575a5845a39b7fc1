// aten::full_like.out (kernels/portable/op_full_like.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(FullLike, FillsAndRefusesValuesThatDoNotFit) {
  auto self = tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto like = empty(ScalarType::Int, {2, 2});
  ASSERT_EQ(call_kernel("aten::full_like.out", {*self, -3, Arg::none(), *like, *like}),
            Error::Ok);
  EXPECT_EQ(like->values<int32_t>(), std::vector<int32_t>(4, -3));
  auto c = empty(ScalarType::Char, {2, 2});
  EXPECT_EQ(call_kernel("aten::full_like.out", {*self, 300, Arg::none(), *c, *c}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
