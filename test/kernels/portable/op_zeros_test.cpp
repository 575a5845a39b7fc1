// aten::zeros.out (kernels/portable/op_zeros.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Zeros, FillsIntOut) {
  auto z = tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 1, 1, 1});
  ASSERT_EQ(call_kernel("aten::zeros.out", {Arg::ints({2, 2}), *z, *z}), Error::Ok);
  EXPECT_EQ(z->values<int32_t>(), (std::vector<int32_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace ember::testing
