// aten::empty.out (kernels/portable/op_empty.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Empty, AcceptsOutOfTheGivenSize) {
  auto z = empty(ScalarType::Int, {2, 2});
  EXPECT_EQ(call_kernel("aten::empty.out", {Arg::ints({2, 2}), Arg::none(), *z, *z}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
