// aten::ones.out (kernels/portable/op_ones.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Ones, FillsIntOut) {
  auto z = empty(ScalarType::Int, {2, 2});
  ASSERT_EQ(call_kernel("aten::ones.out", {Arg::ints({2, 2}), *z, *z}), Error::Ok);
  EXPECT_EQ(z->values<int32_t>(), (std::vector<int32_t>{1, 1, 1, 1}));
}

}  // namespace
}  // namespace ember::testing
