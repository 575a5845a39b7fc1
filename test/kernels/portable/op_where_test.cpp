// aten::where.self_out (kernels/portable/op_where.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Where, BroadcastAndPromote) {
  auto cond = from_doubles(ScalarType::Bool, {2, 1}, {1, 0});
  auto x = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto y = tensor<float>(ScalarType::Float, {2, 3}, {10, 20, 30, 40, 50, 60});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 40, 50, 60}));
  auto fcond = tensor<float>(ScalarType::Float, {2, 1}, {1, 0});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*fcond, *x, *y, *out, *out}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *iout, *iout}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
