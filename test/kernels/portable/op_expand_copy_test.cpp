// aten::expand_copy.out (kernels/portable/op_expand_copy.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(ExpandCopy, Broadcasts) {
  auto a = tensor<float>(ScalarType::Float, {3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {2, 3, 2});
  ASSERT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, -1, 2}), false, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, 4, 2}), false, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
